import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { loadConfig } from "../app/.server/config";
import { loadDotEnv } from "../app/.server/dotenv";
import { createLogger } from "../app/.server/logger";
import { createHttpApp } from "./http-app";
import { gracefulShutdown } from "./graceful";
import { startMetricsServer } from "../app/.server/metrics";
import { mountQueueDashboard } from "./queue-dashboard";

// `npm start` (after `npm run build`): the built Remix app on express, with a shutdown that drains
// (server/graceful.ts), instead of remix-serve, whose open Redis and database connections kept the
// process alive after SIGTERM until the deployment killed it.
loadDotEnv();
process.env.NODE_ENV ??= "production";
const config = loadConfig();
const log = createLogger({ name: "web", level: config.LOG_LEVEL });
const buildDir = resolve(process.env.REMIX_BUILD_DIR ?? "build");
const build = (await import(pathToFileURL(`${buildDir}/server/index.js`).href)) as ServerBuild;

let dashboard: { close(): Promise<void> } | undefined;
const app = createHttpApp({
  build,
  clientDir: `${buildDir}/client`,
  mode: process.env.NODE_ENV,
  mount: (app) => {
    dashboard = mountQueueDashboard(app, {
      redisUrl: config.REDIS_URL,
      cluster: config.REDIS_CLUSTER,
      prefix: config.REDIS_PREFIX,
      user: config.OPERATOR_USER,
      password: config.OPERATOR_PASSWORD,
      writable: config.QUEUE_DASHBOARD_WRITE,
      log,
    });
  },
});
const server = app.listen(config.PORT, process.env.HOST ?? "0.0.0.0", () => {
  const address = server.address();
  log.info(
    {
      port: typeof address === "object" && address ? address.port : config.PORT,
      webhookRoutes: app.locals.webhookRoutes as number,
    },
    "web server listening",
  );
});

const metricsServer =
  config.METRICS_PORT === undefined
    ? undefined
    : await startMetricsServer({
        port: config.METRICS_PORT,
        host: config.METRICS_HOST,
        token: config.METRICS_TOKEN,
        log,
      });

const shutdown = gracefulShutdown([server], {
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  delayMs: config.SHUTDOWN_DELAY_MS,
  log,
  // Scraped until the end, so the last counts of the drain are seen.
  extraClosers: [async () => metricsServer?.close(), async () => dashboard?.close()],
});
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
