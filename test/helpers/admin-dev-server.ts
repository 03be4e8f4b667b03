import { rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import type { Db } from "../../app/.server/db/client";
import type { AdminServer } from "./admin-browser";

// The admin as `npm run dev:local` serves it: Vite's dev server (the app's own vite.config.ts, no
// build) in this process, so the browser gets the modules one by one as Vite transforms them and
// its dependency pre-bundling, where a server-only import reaching the browser breaks hydration
// although the production build is fine. Same app context and database as serveAdmin.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The dev server, and the dependencies Vite had to bundle again after the first page asked for them. */
export type AdminDevServer = AdminServer & { rebundled: () => string[] };

export async function serveAdminDev(db: Db): Promise<AdminDevServer> {
  globalThis.__reviewsDb = db;
  const { createServer, createLogger } = await import("vite");
  // A dependency found only when a page asks for it makes Vite bundle again while that page loads,
  // and the page can end up with two copies of React; vite.config.ts lists them up front instead.
  const rebundled: string[] = [];
  const logger = createLogger("info");
  logger.info = (msg) => {
    if (/new dependencies optimized|optimized dependencies changed/.test(msg)) rebundled.push(msg);
  };
  // A cache of its own (several test files and dev:local may run at once), removed on close.
  const cacheDir = `${ROOT}node_modules/.vite-test-${process.pid}`;
  const vite = await createServer({
    root: ROOT,
    configFile: `${ROOT}vite.config.ts`,
    cacheDir,
    customLogger: logger,
    server: { middlewareMode: true, hmr: false, watch: null },
  });
  const app = express();
  app.disable("x-powered-by");
  app.use(vite.middlewares);
  app.all(
    "*",
    createRequestHandler({
      build: () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>,
      mode: "development",
    }),
  );
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rebundled: () => [...rebundled],
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await vite.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}
