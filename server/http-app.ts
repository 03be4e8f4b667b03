import compression from "compression";
import express, { type Express } from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { isDraining } from "../app/.server/lifecycle";
import { MAX_WEBHOOK_BYTES } from "../app/.server/webhooks";
import { mountWebhookRoutes } from "./webhook-routes";

// The web process's HTTP stack: built assets, then the Remix app. Operations parts (metrics,
// queue dashboard) are mounted by the caller (server/main.ts) before the app.

export function createHttpApp(options: {
  build: ServerBuild;
  clientDir: string;
  mode?: string;
  mount?: (app: Express) => void;
}): Express {
  const app = express();
  app.disable("x-powered-by");
  // While draining, each answer ends its connection (keep-alive clients reconnect elsewhere), also
  // the answer to a request that began before SIGTERM: decided when the head is written.
  app.use((_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      if (isDraining() && !this.headersSent) this.setHeader("Connection", "close");
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  });
  options.mount?.(app);
  // Told in the "listening" line: a build whose webhook routes were not found would be slow, not wrong.
  app.locals.webhookRoutes = mountWebhookRoutes(app, options.build, MAX_WEBHOOK_BYTES);
  // The admin's documents and Polaris' stylesheet shrink about eight times (186 KB → 11 KB and
  // 434 KB → 52 KB for the moderation queue): a merchant's first row waits on both.
  app.use(compression());
  // Fingerprinted by Vite: cached for a year. Other public files: an hour.
  app.use("/assets", express.static(`${options.clientDir}/assets`, { immutable: true, maxAge: "1y" }));
  app.use(express.static(options.clientDir, { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build: options.build, mode: options.mode }));
  return app;
}
