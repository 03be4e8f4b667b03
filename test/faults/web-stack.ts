import { startEmulator, type Emulator } from "../../sandbox/emulator/server";
import { createTestDb, type TestDb } from "../helpers/db";
import { deletePrefix, redisUrl, uniquePrefix } from "../helpers/redis";
import { routeDeliverer, type DeliveryOptions } from "../helpers/webhooks";
import { connectToEmulator } from "../helpers/connect";
import { testAppContext, testConfig, type LogSink } from "../helpers/contexts";
import { createPendingChanges, type PendingChanges } from "../../app/.server/catalog/pending-changes";
import { createProductMirror, type ProductMirror } from "../../app/.server/catalog/product-mirror.repository";
import type { AppContext } from "../../app/.server/context.server";
import type { Config } from "../../app/.server/config";
import { startWorkerProcess, type WorkerProcess } from "./worker-process";
import { seedOfflineSession } from "../helpers/offline-session";
import type { OfflineSessionFields } from "../../sandbox/simulated-store/tokens";

// The stack of test/helpers/stack.ts without its in-process workers: the emulator over HTTP, a
// SQLite database of the file's own, real Redis under a private prefix and the real route modules
// live in the test process; the workers run in child processes (`startWorker`) on the same
// database and prefix, so that a drill can kill them like a crashed machine.

export const CUSTOMERS = ["acme", "bravo"] as const;
export type Customer = (typeof CUSTOMERS)[number];

type Env = Partial<Record<keyof Config, string>>;

export interface WebStack {
  emu: Emulator;
  t: TestDb;
  config: Config;
  web: AppContext & { sink: LogSink };
  prefix: string;
  /** Staged live changes, read through the web process's Redis connection. */
  pending: PendingChanges;
  mirror: ProductMirror;
  deliver(topic: string, shop: string, payload: unknown, opts?: DeliveryOptions): Promise<Response>;
  /**
   * Connects the shop to one of the emulator's accounts; with a store, also installs it (its offline session, expiring
   * pair).
   */
  connect(
    shop: string,
    customer: Customer,
    store?: { shop: string; installSession(): OfflineSessionFields },
  ): Promise<string>;
  /** A worker process on this stack's configuration, `env` on top. */
  startWorker(env?: Env): Promise<WorkerProcess>;
  close(): Promise<void>;
}

export async function startWebStack(label: string, overrides: Env = {}): Promise<WebStack> {
  const emu = await startEmulator({
    port: 0,
    accounts: CUSTOMERS.map((c) => ({ customer: c, clientId: `${c}-client`, clientSecret: `${c}-secret-0123456789` })),
  });
  const t = await createTestDb("sqlite");
  // db.server (imported by the route modules) reads it when first imported.
  process.env.DATABASE_URL = t.url;
  const prefix = uniquePrefix(label);
  const env: Env = {
    DATABASE_URL: t.url,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: prefix,
    REVIEWS_API_URL: emu.baseUrl,
    REVIEWS_AUTH_URL: emu.authUrl,
    REVIEWS_RATE_URL: emu.rateUrl,
    CATALOG_FLUSH_WINDOW_MS: "200",
    SHOP_CACHE_MS: "0",
    // A killed worker's jobs are taken up again after the lock lapses: seconds, not the default 30.
    // Not less: a live worker renews its locks every half lock or so, and on two busy cores a pause
    // of a second happens; a lock lapsed under a live worker lets a second worker run the same job.
    WORKER_LOCK_MS: "5000",
    JOB_BACKOFF_MS: "100",
    ...overrides,
  };
  const config = testConfig({ ...env, DATABASE_URL: t.url, REDIS_PREFIX: prefix });
  const web = testAppContext(config, t.db);
  (await import("../../app/.server/context.server")).setAppContext(web);
  const workers: WorkerProcess[] = [];

  return {
    emu,
    t,
    config,
    web,
    prefix,
    pending: createPendingChanges(web.queues.redis, prefix),
    mirror: createProductMirror(t.db),
    deliver: routeDeliverer(),
    async connect(shop, customer, store) {
      const row = await connectToEmulator(web, shop, customer);
      if (store) await seedOfflineSession(t.db, store, { shop });
      return row.id;
    },
    async startWorker(extra = {}) {
      const worker = await startWorkerProcess(
        { ...env, ...extra } as Record<string, string>,
        `${label} worker ${workers.length + 1}`,
      );
      workers.push(worker);
      return worker;
    },
    async close() {
      await Promise.all(workers.map((w) => w.kill()));
      await web.queues.close();
      await emu.close();
      await deletePrefix(prefix);
      await t.drop();
    },
  };
}
