import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type UserConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

// `shopify app dev` sets HOST; the Shopify CLI tunnel needs the HMR socket on the app URL.
if (process.env.HOST && (!process.env.SHOPIFY_APP_URL || process.env.SHOPIFY_APP_URL === process.env.HOST)) {
  process.env.SHOPIFY_APP_URL = process.env.HOST;
  delete process.env.HOST;
}

const host = new URL(process.env.SHOPIFY_APP_URL || "http://localhost").hostname;
const hmrConfig =
  host === "localhost"
    ? { protocol: "ws", host: "localhost", port: 64999, clientPort: 64999 }
    : { protocol: "wss", host, port: parseInt(process.env.FRONTEND_PORT!) || 8002, clientPort: 443 };

export default defineConfig({
  server: {
    allowedHosts: [host],
    cors: { preflightContinue: true },
    port: Number(process.env.PORT || 3000),
    hmr: hmrConfig,
    fs: { allow: ["app", "node_modules"] },
  },
  plugins: [
    remix({
      // Tests and benchmarks build into a directory of their own (test/helpers/built-app.ts,
      // test/helpers/admin-browser.ts); `npm run build` into build/.
      buildDirectory: process.env.REMIX_BUILD_DIR || "build",
      ignoredRouteFiles: ["**/.*", "**/*.test.*"],
      // All v3 flags on, so the move to React Router v7 is a rename, not a rewrite.
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
  ],
  build: { assetsInlineLimit: 0 },
  optimizeDeps: {
    // Client dependencies known up front, so the first visit does not find them and reload.
    include: ["@shopify/app-bridge-react", "@shopify/polaris", "@shopify/shopify-app-remix/react", "zod"],
    // Server-only packages reached through route modules' loaders and actions: Remix strips those
    // from the browser bundle, but Vite's dependency scan follows every import and would bundle
    // them for the browser on the first visit (and reload the page).
    exclude: [
      "@remix-run/node",
      "@shopify/shopify-app-remix/server",
      // Found on the first visit through Remix's dev manifest (importer index.html), never by the
      // scan: re-bundling then mixed two copies of React in the open page (hook call errors).
      "@shopify/shopify-api",
      "@shopify/shopify-app-remix/adapters/node",
      "@shopify/shopify-app-session-storage-prisma",
      "@prisma/client",
      "@prisma/adapter-better-sqlite3",
      "@prisma/adapter-pg",
      "better-sqlite3",
      "pg",
      "bullmq",
      "ioredis",
      "pino",
      "prom-client",
      "lru-cache",
      "libphonenumber-js",
      // The storefront's Liquid engine, reached through the storefront/ door some routes import.
      "liquidjs",
    ],
  },
}) satisfies UserConfig;
