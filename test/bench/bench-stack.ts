import { createTestDb, type TestDb } from "../helpers/db";
import { deletePrefix, uniquePrefix } from "../helpers/redis";
import { LogSink, eventually, testAppContext, testConfig, testWorkerContext } from "../helpers/contexts";
import { defaultProcessors, startWorkers, type RunningWorkers } from "../../workers/start";
import { Worker } from "bullmq";
import { QueueName } from "../../app/.server/queues/names";
import { createRedis, queuePrefix } from "../../app/.server/queues";
import { startSync } from "../../app/.server/sync/start-sync";
import { parseProgress, type SyncProgress } from "../../app/.server/sync/sync-runs.repository";
import { createDb } from "../../app/.server/db/client";
import { createPendingChanges, type PendingChanges } from "../../app/.server/catalog/pending-changes";
import type { AppContext } from "../../app/.server/context.server";
import type { WorkerContext } from "../../workers/context";
import type { Config } from "../../app/.server/config";
import type { EmulatorInfo, StoreInfo } from "./children";
import { seedOfflineSession } from "../helpers/offline-session";

// The app side of a measured run, inside its child process: like test/helpers/stack.ts (a SQLite
// database of its own, a private Redis prefix, the real workers), but the emulator and the store
// are other processes, reached by URL, and logs are counted rather than kept (a sink that keeps
// every line would grow with N and spoil the memory figure).

/** Keeps the last lines (LOG_LEVEL=warn: warnings and errors only) and a count. */
export class BoundedSink extends LogSink {
  count = 0;
  _write(chunk: Buffer, _enc: string, done: () => void) {
    this.count++;
    this.lines.push(chunk.toString());
    if (this.lines.length > 50) this.lines.shift();
    done();
  }
}

export interface Services {
  emulator: EmulatorInfo;
  store: StoreInfo;
}

export interface BenchStack {
  t: TestDb;
  config: Config;
  web: AppContext;
  /** Staged live changes, read through the web process's Redis connection. */
  pending: PendingChanges;
  shopId: string;
  sink: BoundedSink;
  /** When the (last) catalog-read job of the in-process workers started and ended (performance.now()). */
  readMarks: { start?: number; end?: number };
  close(): Promise<void>;
}

function benchConfig(services: Services, databaseUrl: string, prefix: string): Config {
  return testConfig({
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: prefix,
    REVIEWS_API_URL: services.emulator.baseUrl,
    REVIEWS_AUTH_URL: services.emulator.authUrl,
    REVIEWS_RATE_URL: services.emulator.rateUrl,
    SHOPIFY_ORIGIN: services.store.shopifyOrigin,
    // Warnings and errors only: they are counted and the last few shown.
    LOG_LEVEL: "warn",
  });
}

/** The real workers on a context of their own; the read job is wrapped only to time it. */
function startTimedWorkers(worker: WorkerContext, readMarks: BenchStack["readMarks"]): RunningWorkers {
  const processors = defaultProcessors();
  const syncJobs = processors.jobs[QueueName.sync]!;
  const read = syncJobs["catalog-read"];
  syncJobs["catalog-read"] = async (job, ctx, token) => {
    readMarks.start = performance.now();
    try {
      return await read(job, ctx, token);
    } finally {
      readMarks.end = performance.now();
    }
  };
  return startWorkers(worker, processors);
}

/**
 * Jobs of a queue still to do: waiting, running, delayed or waiting for children. A job scheduler
 * (the catalog sweep) always keeps its next run delayed: not work in hand, so not counted.
 */
export async function busyJobs(queues: AppContext["queues"], name: QueueName): Promise<number> {
  const queue = queues.get(name);
  const c = await queue.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children");
  return Object.values(c).reduce((a, b) => a + b, 0) - (await queue.getJobSchedulersCount());
}

/**
 * The database, Redis prefix, web context and connected shop of a run; with `workers: true` the
 * real workers run in this process too (the sync run), otherwise in a worker process of their own
 * (see `workersChild`), as in production where web and worker processes are separate.
 */
export async function startBenchStack(
  label: string,
  services: Services,
  opts: { workers: boolean },
): Promise<BenchStack & { prefix: string }> {
  const t = await createTestDb("sqlite");
  // db.server (imported by the route modules) reads it when first imported.
  process.env.DATABASE_URL = t.url;
  const prefix = uniquePrefix(label);
  const config = benchConfig(services, t.url, prefix);
  const sink = new BoundedSink();
  const web = testAppContext(config, t.db, sink);
  const readMarks: BenchStack["readMarks"] = {};
  let worker: WorkerContext | undefined;
  let workers: RunningWorkers | undefined;
  if (opts.workers) {
    worker = testWorkerContext(config, t.db, sink);
    workers = startTimedWorkers(worker, readMarks);
  }

  const { store, emulator } = services;
  const shop = await web.shops.connect({
    domain: store.shop,
    customerKey: emulator.customer,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
  });
  await web.shops.setPrimaryDomain(store.shop, store.primaryDomain);
  const session = (await (await fetch(store.sessionUrl, { method: "POST" })).json()) as Record<
    "accessToken" | "expires" | "refreshToken" | "refreshTokenExpires" | "scope",
    string
  >;
  await seedOfflineSession(t.db, {
    shop: store.shop,
    installSession: () => ({
      ...session,
      expires: new Date(session.expires),
      refreshTokenExpires: new Date(session.refreshTokenExpires),
    }),
  });

  return {
    t,
    config,
    web,
    pending: createPendingChanges(web.queues.redis, prefix),
    prefix,
    shopId: shop.id,
    sink,
    readMarks,
    async close() {
      await workers?.close();
      await worker?.close();
      await web.queues.close();
      await deletePrefix(prefix);
      await t.drop();
    },
  };
}

/**
 * A worker process (`--child workers`): the real workers on the run's database and Redis prefix,
 * until SIGTERM; then it closes them the way workers/index.ts does and reports what it logged.
 */
export async function workersChild(
  services: Services,
  databaseUrl: string,
  prefix: string,
): Promise<{ warnings: number; lastWarnings: string[] }> {
  const sink = await runWorkersUntilStopped(benchConfig(services, databaseUrl, prefix), (worker) =>
    startTimedWorkers(worker, {}),
  );
  return { warnings: sink.count, lastWarnings: sink.lines.slice(-5) };
}

/**
 * BullMQ's own ceiling on this box: a worker process on the webhooks queue, with the options and
 * concurrency the real one has (workers/start.ts), whose processor does nothing per job. The drain
 * bench runs it on the same mix as the real workers.
 */
export async function noopWorkersChild(
  services: Services,
  databaseUrl: string,
  prefix: string,
): Promise<{ warnings: number; lastWarnings: string[] }> {
  const config = benchConfig(services, databaseUrl, prefix);
  const connection = createRedis({ url: config.REDIS_URL, cluster: config.REDIS_CLUSTER }, "worker");
  const worker = new Worker(QueueName.webhooks, async () => "done", {
    connection,
    prefix: queuePrefix(config, QueueName.webhooks),
    concurrency: config.WEBHOOK_CONCURRENCY,
    lockDuration: config.WORKER_LOCK_MS,
    stalledInterval: Math.ceil(config.WORKER_LOCK_MS / 2),
    maxStalledCount: 5,
  });
  let warnings = 0;
  const lastWarnings: string[] = [];
  worker.on("error", (e) => {
    warnings++;
    lastWarnings.push(e.message);
  });
  await worker.waitUntilReady();
  const stopped = new Promise<void>((resolve) => process.once("SIGTERM", () => resolve()));
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  await stopped;
  await worker.close();
  connection.disconnect();
  return { warnings, lastWarnings: lastWarnings.slice(-5) };
}

/**
 * A worker child's life: the workers `start` makes on a context of the config's database and Redis
 * prefix, the ready line once Redis answers, then at SIGTERM closed the way workers/index.ts does.
 * Resolves with what they logged.
 */
export async function runWorkersUntilStopped(
  config: Config,
  start: (worker: WorkerContext) => RunningWorkers,
): Promise<BoundedSink> {
  const db = createDb(config.DATABASE_URL);
  const sink = new BoundedSink();
  const worker = testWorkerContext(config, db, sink);
  const workers = start(worker);
  await worker.queues.ready(5000);
  const stopped = new Promise<void>((resolve) => process.once("SIGTERM", () => resolve()));
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  await stopped;
  await workers.close();
  await worker.close();
  await db.$disconnect();
  return sink;
}

export interface SyncOutcome {
  status: string;
  error: string | null;
  progress: SyncProgress;
  /** startSync → run completed, ms. */
  totalMs: number;
}

/** Starts a full catalog sync and waits for its end; `onTick` sees the run every `tickMs`. */
export async function runFullSync(
  s: BenchStack,
  timeoutMs: number,
  onTick?: (p: SyncProgress, status: string) => void,
  tickMs = 250,
): Promise<SyncOutcome> {
  const started = performance.now();
  const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, s.shopId, "catalog");
  let lastTick = 0;
  const done = await eventually(
    () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
    (r) => {
      if (onTick && performance.now() - lastTick >= tickMs) {
        lastTick = performance.now();
        onTick(parseProgress(r.progress), r.status);
      }
      return r.status === "completed" || r.status === "failed" || r.status === "cancelled";
    },
    timeoutMs,
  );
  return {
    status: done.status,
    error: done.error,
    progress: parseProgress(done.progress),
    totalMs: performance.now() - started,
  };
}
