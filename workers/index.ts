import { loadConfig } from "../app/.server/config";
import { createWorkerContext } from "./context";
import { startWorkers } from "./start";
import { ready } from "../app/.server/queues";
import { startMetricsServer, queueSource, metrics } from "../app/.server/metrics";

// `npm run worker`: runs every queue's processors until SIGTERM or SIGINT, then finishes the jobs
// in hand and exits. Run as many of these as the load needs, on as many machines as share Redis.
const config = loadConfig();
// Like the web process (server/main.ts): unset means production, so the worker's metafield writes
// keep only https URLs (app/.server/security/safe-url.ts); `dev:local` says development.
process.env.NODE_ENV ??= "production";
process.env.PROCESS_NAME = "worker";
const ctx = createWorkerContext(config);
const running = startWorkers(ctx);
metrics().setQueueSource(queueSource(ctx.queues));
const metricsServer =
  config.WORKER_METRICS_PORT === undefined
    ? undefined
    : startMetricsServer({
        port: config.WORKER_METRICS_PORT,
        host: config.METRICS_HOST,
        token: config.METRICS_TOKEN,
        log: ctx.log,
      }).catch((e: Error) => {
        ctx.log.error({ err: e.message }, "metrics endpoint not started");
        return undefined;
      });

ready(ctx.queues.redis, 30_000).then(
  () =>
    ctx.log.info(
      { queues: running.workers.map((w) => w.name), prefix: config.REDIS_PREFIX },
      "worker connected to Redis",
    ),
  (e) => ctx.log.error({ err: (e as Error).message }, "worker could not reach Redis yet; retrying"),
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  ctx.log.info({ signal }, "worker stopping");
  const force = setTimeout(() => {
    ctx.log.error("worker did not stop in 30 s; exiting");
    process.exit(1);
  }, 30_000);
  force.unref();
  await running.close();
  await ctx.close();
  await (await metricsServer)?.close();
  ctx.log.info("worker stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
