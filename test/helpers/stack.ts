import { startEmulator, type Emulator, type EmulatorOptions } from "../../sandbox/emulator/server";
import { createTestDb, type TestDb } from "./db";
import { deletePrefix, uniquePrefix } from "./redis";
import { routeDeliverer, type DeliveryOptions } from "./webhooks";
import { connectToEmulator } from "./connect";
import { testAppContext, testConfig, testWorkerContext, type LogSink } from "./contexts";
import { defaultProcessors, startWorkers, type RunningWorkers } from "../../workers/start";
import { allQueueNames } from "../../app/.server/queues/names";
import { eventually } from "./contexts";
import type { AppContext } from "../../app/.server/context.server";
import type { WorkerContext } from "../../workers/context";
import type { Config } from "../../app/.server/config";

// The whole data path on real parts: the emulator over HTTP, a database of the test file's own,
// real Redis under a private prefix, the real route modules and real workers.

export interface Stack {
  emu: Emulator;
  t: TestDb;
  config: Config;
  web: AppContext & { sink: LogSink };
  worker: WorkerContext & { sink: LogSink };
  workers: RunningWorkers;
  prefix: string;
  /** Delivers a signed webhook through the route module of its topic. */
  deliver(topic: string, shop: string, payload: unknown, opts?: DeliveryOptions): Promise<Response>;
  connect(shop: string, customer?: string): Promise<void>;
  /**
   * Resolves once the system has nothing left to do: no catalog change waiting or in flight for
   * any shop, and no job waiting, running or delayed in any queue (the sweep's scheduler aside),
   * seen twice in a row. Take baselines after it, not after the first visible effect of a change.
   * A delayed job due after the timeout (a delivered-after-N-days timer, a long tracking grace)
   * cannot run while a test waits, so it does not count.
   */
  idle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** `emulator`: options of the emulator (strict mode, the admin listings' page size). */
export async function startStack(
  label: string,
  overrides: Partial<Record<keyof Config, string>> = {},
  opts: { emulator?: Pick<EmulatorOptions, "strict" | "adminPageSize"> } = {},
): Promise<Stack> {
  const emu = await startEmulator({
    port: 0,
    accounts: [{ customer: "acme", clientId: "acme-client", clientSecret: "acme-secret-0123456789" }],
    ...opts.emulator,
  });
  const t = await createTestDb("sqlite");
  process.env.DATABASE_URL = t.url;
  const prefix = uniquePrefix(label);
  const config = testConfig({
    DATABASE_URL: t.url,
    REDIS_PREFIX: prefix,
    REVIEWS_API_URL: emu.baseUrl,
    REVIEWS_AUTH_URL: emu.authUrl,
    REVIEWS_RATE_URL: emu.rateUrl,
    CATALOG_FLUSH_WINDOW_MS: "200",
    // Tests change settings between deliveries and expect the next one to see them.
    SHOP_CACHE_MS: "0",
    ...overrides,
  });
  const web = testAppContext(config, t.db);
  // The web side fails fast while Redis is not connected (production's /ready waits for it): on a
  // busy machine a test's first request raced the connection and got the "try again" fragment.
  if (!overrides.REDIS_URL) await web.queues.ready(30_000);
  (await import("../../app/.server/context.server")).setAppContext(web);
  const worker = testWorkerContext(config, t.db);
  const workers = startWorkers(worker, defaultProcessors());
  const stack: Stack = {
    emu,
    t,
    config,
    web,
    worker,
    workers,
    prefix,
    deliver: routeDeliverer(),
    async connect(shop, customer = "acme") {
      await connectToEmulator(web, shop, customer);
    },
    async idle(timeoutMs = 30_000) {
      const outstanding = async () => {
        let n = (await worker.pending.shopsWithChanges()).length;
        for (const name of allQueueNames) {
          const queue = web.queues.get(name);
          const counts = await queue.getJobCounts("waiting", "active", "prioritized", "waiting-children");
          n += Object.values(counts).reduce((a, b) => a + b, 0);
          const horizon = Date.now() + timeoutMs;
          n += (await queue.getDelayed()).filter(
            (job) => !job.repeatJobKey && job.timestamp + job.delay <= horizon,
          ).length;
        }
        return n;
      };
      let quietProbes = 0;
      await eventually(
        async () => ((await outstanding()) === 0 ? ++quietProbes : (quietProbes = 0)),
        (n) => n >= 2,
        timeoutMs,
      );
    },
    async close() {
      // The workers running now: a test that stopped them may have started others.
      await stack.workers.close();
      await worker.close();
      await web.queues.close();
      await emu.close();
      await deletePrefix(prefix);
      await t.drop();
    },
  };
  return stack;
}
