import { statSync } from "node:fs";
import type { Redis } from "ioredis";
import { startEmulator } from "../../sandbox/emulator/server";
import { OrderBook, ordersModule, startStoreFleet } from "../../sandbox/simulated-store";
import { createTestDb } from "../helpers/db";
import type { DbProvider } from "../../app/.server/db/client";
import { deletePrefix, uniquePrefix } from "../helpers/redis";
import { testAppContext, testConfig } from "../helpers/contexts";
import { seedOfflineSession } from "../helpers/offline-session";
import { defaultProcessors, startWorkers } from "../../workers/start";
import { startFirstSyncs } from "../../app/.server/install/connect-shop";
import { requestBackSync, tickEveryMs } from "../../app/.server/backsync/schedule";
import { pollScheduleKeys } from "../../app/.server/activity/poll-schedule";
import type { Config } from "../../app/.server/config";
import { BoundedSink, runWorkersUntilStopped } from "./bench-stack";
import { signedWebhookRequest } from "../helpers/webhooks";
import { parseProgress } from "../../app/.server/sync/sync-runs.repository";
import { cpuSecondsOf, startServiceChild } from "./children";
import type { BenchResult } from "./report";
import { BACKSYNC_TICK } from "../../app/.server/jobs";

// Scale: N shops installed and connected through the code path the CLI and the admin use (an
// offline session as an install stores it, `shops.connect`, `startFirstSyncs`), against one
// emulator with an account per shop and one simulated-store fleet serving every shop, with one
// worker process (measured). Then two idle hours and a burst of activity on 1% of the shops.
//
// The clock: an hour of wall time per size would make the scenario useless, so the back-sync's
// periods are divided by a factor (60 up to 1,000 shops: an hour passes in a minute, a 50 s poll
// every 833 ms, the 15-minute quiet pace every 15 s, the day's reconciliations spread over 24
// minutes; less with more shops, 6 at 10,000, so that the one worker can keep the pace). Counts per
// compressed hour are counts per hour; CPU seconds per compressed hour over 3,600 are the share of
// a core the same work takes in real time. The connects' own activity (an hour at the active pace
// after each, a constant) would keep every shop active on that clock, so the connects run with a
// worker at the real pace, and a worker on the compressed clock takes over after them, as a
// deployment's worker starts: the shops' polls spread over one active period.

/** How much faster than real time the back-sync's clock runs for `n` shops. */
const compressionFor = (n: number) => Math.min(60, Math.max(1, Math.round(60_000 / n)));
const CONNECTS_AT_ONCE = 20;
const BENCH_COUNTS = "bench:jobs-done";
const BENCH_RUNS = "bench:backsync-runs";

const account = (i: number) => ({
  customer: `bench-${i}`,
  clientId: `bench-${i}-client`,
  clientSecret: `bench-${i}-secret-0123456789`,
});
const domainOf = (i: number) => `bench-${i}.myshopify.com`;

/**
 * The worker process (`--child fleet-workers`): the real workers with every job's completion counted
 * in Redis (one HINCRBY each, under the bench's prefix), until SIGTERM.
 */
export async function fleetWorkersChild(overrides: Record<string, string>): Promise<{ warnings: number }> {
  const config = testConfig({ ...overrides, LOG_LEVEL: "warn" } as Parameters<typeof testConfig>[0]);
  const countsKey = `${config.REDIS_PREFIX}:${BENCH_COUNTS}`;
  const runsKey = `${config.REDIS_PREFIX}:${BENCH_RUNS}`;
  const sink = await runWorkersUntilStopped(config, (worker) => {
    const processors = defaultProcessors();
    for (const jobs of Object.values(processors.jobs)) {
      for (const [name, handle] of Object.entries(jobs ?? {})) {
        jobs![name] = async (job, ctx, token) => {
          const out = await handle(job, ctx, token);
          await worker.queues.redis.hincrby(countsKey, name, 1);
          if (name === "backsync") await worker.queues.redis.hincrby(runsKey, job.data.shopId, 1);
          return out;
        };
      }
    }
    return startWorkers(worker, processors);
  });
  return { warnings: sink.count };
}

async function jobCounts(redis: Redis, prefix: string): Promise<Record<string, number>> {
  const raw = await redis.hgetall(`${prefix}:${BENCH_COUNTS}`);
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
}

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

function diff(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
}

/** Bytes Redis holds under the prefix, by key family (ids taken out of the names). */
async function redisBytes(redis: Redis, prefix: string): Promise<{ total: number; families: [string, number][] }> {
  const families = new Map<string, number>();
  let total = 0;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    const mine = keys.filter((k) => !k.endsWith(BENCH_COUNTS) && !k.endsWith(BENCH_RUNS));
    if (!mine.length) continue;
    const tx = redis.pipeline();
    for (const k of mine) tx.memory("USAGE", k);
    const sizes = ((await tx.exec()) ?? []).map(([, v]) => Number(v ?? 0));
    mine.forEach((key, i) => {
      const family = key
        .slice(prefix.length + 1)
        .split(":")
        .map((part) => (/\d|^c[a-z0-9]{20,}$/.test(part) && !part.startsWith("{") ? "*" : part))
        .slice(0, 3)
        .join(":");
      families.set(family, (families.get(family) ?? 0) + sizes[i]!);
      total += sizes[i]!;
    });
  } while (cursor !== "0");
  return { total, families: [...families].sort((a, b) => b[1] - a[1]) };
}

async function sleep(ms: number) {
  await new Promise((r) => setTimeout(r, ms));
}

async function runOne(n: number, provider: DbProvider, fairnessProducts: number): Promise<BenchResult> {
  const log = (line: string) => console.error(`[shops ${n}${provider === "postgresql" ? ", PostgreSQL" : ""}] ${line}`);
  const COMPRESS = compressionFor(n);
  const HOUR_MS = 3_600_000 / COMPRESS;
  // One account more: the big shop of the fairness phase.
  const emu = await startEmulator({ port: 0, accounts: Array.from({ length: n + 1 }, (_, i) => account(i)) });
  const fleet = await startStoreFleet({
    shopOptions: { keepHistory: false, products: 0, tokenLifetimeMs: 86_400_000, bulkDurationMs: 5 },
  });
  const t = await createTestDb(provider);
  const prefix = uniquePrefix("bench-shops");
  const overrides: Record<string, string> = {
    DATABASE_URL: t.url,
    REDIS_PREFIX: prefix,
    REVIEWS_API_URL: emu.baseUrl,
    REVIEWS_AUTH_URL: emu.authUrl,
    REVIEWS_RATE_URL: emu.rateUrl,
    SHOPIFY_ORIGIN: fleet.originTemplate,
    BACKSYNC_INTERVAL_MS: String(Math.round(50_000 / COMPRESS)),
    BACKSYNC_QUIET_MS: String(Math.round(900_000 / COMPRESS)),
    BACKSYNC_RECONCILE_MS: String(Math.round(86_400_000 / COMPRESS)),
    BULK_POLL_INTERVAL_MS: "200",
  };
  const config: Config = testConfig({ ...overrides, LOG_LEVEL: "warn" } as Parameters<typeof testConfig>[0]);
  const web = testAppContext(config, t.db, new BoundedSink());
  await web.queues.ready(5000);
  const redis = web.queues.redis;
  // The connects run at the real pace (a worker with the default periods): on the compressed clock
  // every connected shop, active for an hour after its connect, would be polled 60 times too often.
  const { BACKSYNC_INTERVAL_MS: _i, BACKSYNC_QUIET_MS: _q, BACKSYNC_RECONCILE_MS: _r, ...realPace } = overrides;
  let workers = await startServiceChild<{ warnings: number }>(
    ["--child", "fleet-workers", "--config", JSON.stringify(realPace)],
    "workers",
  );
  try {
    // Connect every shop, as an install and the merchant's credentials do.
    const connectStarted = performance.now();
    const cpu0 = cpuSecondsOf(workers.pid);
    let next = 0;
    let lastLog = performance.now();
    const ids: string[] = [];
    // The stores of the shops the fairness phase places orders in.
    const books = new Map<number, OrderBook>();
    await Promise.all(
      Array.from({ length: CONNECTS_AT_ONCE }, async () => {
        for (let i = next++; i < n; i = next++) {
          const domain = domainOf(i);
          // An empty store: no products, no orders (every bulk query answers, with nothing in it).
          // The shops the fairness phase places orders in sell one product (an order needs one).
          const sells = i >= 1 && i <= FAIRNESS_SHOPS ? 1 : 0;
          const book = new OrderBook({ seed: i, count: 0, productCount: sells });
          if (sells) books.set(i, book);
          const store = fleet.add(domain, { seed: i, products: sells, modules: [ordersModule(book)] });
          await seedOfflineSession(t.db, { shop: domain, installSession: () => store.installSession() });
          const a = account(i);
          const row = await web.shops.connect({
            domain,
            customerKey: a.customer,
            clientId: a.clientId,
            clientSecret: a.clientSecret,
          });
          await web.shops.setPrimaryDomain(domain, store.primaryDomain);
          await startFirstSyncs({ db: t.db, queues: web.queues, config }, row.id);
          ids[i] = row.id;
          if (performance.now() - lastLog > 5_000) {
            lastLog = performance.now();
            log(`connected ${i + 1} of ${n}`);
          }
        }
      }),
    );
    // Connected: every first sync done, every shop's first back-sync run done.
    for (;;) {
      const [runs, backsynced] = await Promise.all([
        t.db.syncRun.count({ where: { status: { in: ["completed", "failed"] } } }),
        t.db.backSyncState.count({ where: { definitionsEnabledAt: { not: null } } }),
      ]);
      if (runs >= 2 * n && backsynced >= n) break;
      if (performance.now() - lastLog > 5_000) {
        lastLog = performance.now();
        log(`first syncs ${runs} of ${2 * n}, first back-syncs ${backsynced} of ${n}`);
      }
      await sleep(250);
    }
    const failedRuns = await t.db.syncRun.count({ where: { status: "failed" } });
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    const connectCpu = cpuSecondsOf(workers.pid) - cpu0;
    log(`connected in ${connectSeconds.toFixed(1)} s`);

    // The setup hour is over, and a worker on the compressed clock takes over: it starts as a
    // deployment's worker does, with the shops' polls spread over one active period.
    await workers.stop();
    const keys = pollScheduleKeys(prefix);
    await redis.del(keys.active, keys.due, keys.delay, keys.reconcile);
    workers = await startServiceChild<{ warnings: number }>(
      ["--child", "fleet-workers", "--config", JSON.stringify(overrides)],
      "workers",
    );
    await sleep(HOUR_MS / 12);

    const sample = async () => ({
      at: performance.now(),
      cpu: cpuSecondsOf(workers.pid),
      service: emu.control.lastRequestSeq(),
      shopify: fleet.requests(),
      jobs: await jobCounts(redis, prefix),
    });
    const hours: { cpu: number; service: number; shopify: number; jobs: Record<string, number>; seconds: number }[] =
      [];
    for (let h = 0; h < 2; h++) {
      const before = await sample();
      await sleep(HOUR_MS);
      const after = await sample();
      hours.push({
        cpu: after.cpu - before.cpu,
        service: after.service - before.service,
        shopify: after.shopify - before.shopify,
        jobs: diff(after.jobs, before.jobs),
        seconds: (after.at - before.at) / 1000,
      });
      log(`idle hour ${h + 1}: ${sum(hours[h]!.jobs)} jobs, ${hours[h]!.service} service calls`);
    }
    const bytes = await redisBytes(redis, prefix);

    // The burst: 1% of the shops see a merchant at work (a moderation in the admin each).
    const burst = ids.slice(0, Math.max(1, Math.round(n / 100)));
    const runsOf = async (shopIds: string[]) =>
      (await redis.hmget(`${prefix}:${BENCH_RUNS}`, ...shopIds)).reduce((a, v) => a + Number(v ?? 0), 0);
    const burstRuns0 = await runsOf(burst);
    const burstStarted = performance.now();
    for (const id of burst) await requestBackSync({ queues: web.queues, config }, id);
    await sleep(HOUR_MS / 6);
    const burstHours = (performance.now() - burstStarted) / HOUR_MS;
    const burstPollsPerShopHour = (await runsOf(burst)) - burstRuns0;

    const rows: Record<string, number> = {};
    const tables = (await t.db.$queryRawUnsafe(
      provider === "sqlite"
        ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'"
        : "SELECT tablename::text AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE '\\_%'",
    )) as { name: string }[];
    for (const { name } of tables) {
      const [{ c }] = (await t.db.$queryRawUnsafe(`SELECT COUNT(*) AS c FROM "${name}"`)) as { c: bigint }[];
      if (Number(c)) rows[name] = Number(c);
    }
    // SQLite: the file and its WAL; PostgreSQL: the database as pg_database_size counts it (tables,
    // indexes, TOAST, free space), which includes the few MB an empty database holds.
    let dbBytes: number;
    if (provider === "sqlite") {
      const dbFile = t.url.replace(/^file:/, "");
      dbBytes = statSync(dbFile).size + (statSync(`${dbFile}-wal`, { throwIfNoEntry: false })?.size ?? 0);
    } else {
      const [{ size }] = (await t.db.$queryRawUnsafe("SELECT pg_database_size(current_database()) AS size")) as {
        size: bigint;
      }[];
      dbBytes = Number(size);
    }

    const steady = hours[1]!;
    const perHour = (v: number, h: (typeof hours)[number]) => v / (h.seconds / (HOUR_MS / 1000));
    const cpuShare = (steady.cpu / (steady.seconds / (HOUR_MS / 1000)) / 3600) * 100;
    // A worker that could not keep the compressed pace runs fewer ticks (they queue behind the
    // runs): its counts are then not per hour, and the report says so.
    const expectedTicks = (steady.seconds * 1000) / tickEveryMs(Math.round(50_000 / COMPRESS));
    const kept = (steady.jobs[BACKSYNC_TICK] ?? 0) >= 0.8 * expectedTicks;
    const figures: BenchResult["figures"] = {
      shops: n,
      "worker kept the compressed pace (ticks run / expected)": `${kept ? "yes" : "NO: figures not per hour"} (${steady.jobs[BACKSYNC_TICK] ?? 0} / ${Math.round(expectedTicks)})`,
      "clock compressed (an hour in s)": HOUR_MS / 1000,
      "connect (real pace): all first syncs and back-syncs done (s)": Math.round(connectSeconds * 10) / 10,
      "connect: worker CPU per shop (ms)": Math.round((connectCpu / n) * 1000 * 10) / 10,
      "connect: failed sync runs": failedRuns,
      "idle hour 1 (back-off from the active pace): jobs per shop":
        Math.round((perHour(sum(hours[0]!.jobs), hours[0]!) / n) * 10) / 10,
      "idle hour 1: service calls per shop": Math.round((perHour(hours[0]!.service, hours[0]!) / n) * 10) / 10,
      "idle hour 2 (steady): jobs per shop": Math.round((perHour(sum(steady.jobs), steady) / n) * 10) / 10,
      "idle hour 2: jobs by name": Object.entries(steady.jobs)
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
      "idle hour 2: service calls per shop": Math.round((perHour(steady.service, steady) / n) * 10) / 10,
      "idle hour 2: Shopify Admin calls per shop": Math.round((perHour(steady.shopify, steady) / n) * 10) / 10,
      "idle hour 2: worker CPU (s per hour)": Math.round((steady.cpu / (steady.seconds / (HOUR_MS / 1000))) * 10) / 10,
      "idle: worker CPU, % of one core": Math.round(cpuShare * 100) / 100,
      "Redis bytes per shop": Math.round(bytes.total / n),
      "Redis: largest key families (bytes per shop)": bytes.families
        .slice(0, 6)
        .map(([f, b]) => `${f} ${Math.round(b / n)}`)
        .join(", "),
      "database rows per shop": Math.round((sum(rows) / n) * 10) / 10,
      "database rows by table": Object.entries(rows)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
      [`database bytes per shop (${provider === "sqlite" ? "SQLite file" : "pg_database_size"})`]: Math.round(
        dbBytes / n,
      ),
      "burst: shops with a moderation": burst.length,
      "burst: back-sync runs per active shop per hour":
        Math.round((burstPollsPerShopHour / burst.length / burstHours) * 10) / 10,
      "idle hour 2: back-sync runs per quiet shop": Math.round(((steady.jobs.backsync ?? 0) / n) * 10) / 10,
      "before this change: service calls per idle shop per hour": 240,
    };
    // Last: the big shop's rows would count in the figures per shop above.
    const fair = fairnessProducts
      ? await fairness({ n, products: fairnessProducts, emu, fleet, t, web, config, books, log })
      : null;
    if (fair) Object.assign(figures, fair.figures);
    return {
      scenario: `shops: ${n.toLocaleString("en-US")} connected shops, idle, then 1% active${provider === "postgresql" ? " (PostgreSQL)" : ""}`,
      figures,
      targets: {
        ...(fair
          ? {
              [`fairness: another shop's order during a big first sync, slowest − slowest before (ms, ≤ ${FAIRNESS_EXTRA_MS})`]:
                { value: fair.value, limit: FAIRNESS_EXTRA_MS, ok: fair.ok },
            }
          : {}),
        "Redis bytes per idle shop ≤ 10 KB": {
          value: Math.round(bytes.total / n),
          limit: 10_240,
          ok: bytes.total / n <= 10_240,
        },
        "worker CPU while idle < 5% of one core": {
          value: Math.round(cpuShare * 100) / 100,
          limit: 5,
          ok: kept && cpuShare < 5,
        },
      },
    };
  } finally {
    await workers.stop().catch(() => undefined);
    await web.queues.close();
    await fleet.close();
    await emu.close();
    await deletePrefix(prefix);
    await t.drop();
  }
}

// ---------- fairness: one shop's big first sync, other shops' orders meanwhile ----------

/** How much later another shop's order may reach the service while one shop's big sync runs. */
export const FAIRNESS_EXTRA_MS = 1_000;
const FAIRNESS_SHOPS = 10;
const BIG_DOMAIN = "bench-big.myshopify.com";

interface FairnessDeps {
  n: number;
  products: number;
  emu: Awaited<ReturnType<typeof startEmulator>>;
  fleet: Awaited<ReturnType<typeof startStoreFleet>>;
  t: Awaited<ReturnType<typeof createTestDb>>;
  web: ReturnType<typeof testAppContext>;
  config: Config;
  books: Map<number, OrderBook>;
  log: (line: string) => void;
}

/**
 * A new shop with `products` products connects (its first catalog sync starts) while the fleet
 * idles; ten other shops take an order each before it, and again while its sync reads and sends.
 * Each order is delivered as Shopify sends it (orders/create through the route) and timed until the
 * service has it. A full sync holds a slot of the `sync` queue, orders run on `webhooks`: the
 * orders may only be slowed by the CPU the sync takes between two of its awaits (a turn), not wait
 * for it.
 */
async function fairness(d: FairnessDeps): Promise<{ figures: BenchResult["figures"]; ok: boolean; value: number }> {
  const { setAppContext } = await import("../../app/.server/context.server");
  setAppContext(d.web);
  type Action = (a: { request: Request; params: object; context: object }) => Promise<Response>;
  const routes = new Map<string, Action>();
  const route = async (topic: string) =>
    routes.get(topic) ??
    routes
      .set(topic, (await import(`../../app/routes/webhooks.${topic.replace("/", ".")}.tsx`)).action as Action)
      .get(topic)!;

  /** One order for each of the ten shops, 200 ms apart; the ms from each delivery to the service's 2xx. */
  const orders = async (): Promise<number[]> => {
    const since = d.emu.control.lastRequestSeq();
    const sent: { path: string; at: number }[] = [];
    for (const [i, book] of d.books) {
      const placed = book.place({ lines: [{ productIndex: 0 }], financialStatus: "PAID" });
      const at = Date.now();
      for (const w of placed.webhooks) {
        const res = await (
          await route(w.topic)
        )({
          request: signedWebhookRequest({ topic: w.topic, shop: domainOf(i), payload: w.payload }),
          params: {},
          context: {},
        });
        if (res.status !== 200) throw new Error(`fairness: ${w.topic} for shop ${i} answered ${res.status}`);
      }
      sent.push({ path: `/api/${account(i).customer}/orders`, at });
      await sleep(200);
    }
    const deadline = Date.now() + 120_000;
    for (;;) {
      const log = d.emu.control.requests(since);
      const accepted = sent.map((s) =>
        log.find((e) => e.path === s.path && e.status !== null && e.status < 300 && Date.parse(e.at) >= s.at - 5),
      );
      if (accepted.every(Boolean)) return accepted.map((e, k) => Date.parse(e!.at) - sent[k]!.at);
      if (Date.now() > deadline) throw new Error("fairness: orders not at the service after 120 s");
      await sleep(100);
    }
  };

  const before = await orders();
  d.log(`fairness: orders before the big sync, slowest ${Math.max(...before)} ms`);

  const big = d.fleet.add(BIG_DOMAIN, { products: d.products, modules: [ordersModule(new OrderBook({ seed: 7 }))] });
  await seedOfflineSession(d.t.db, { shop: BIG_DOMAIN, installSession: () => big.installSession() });
  const a = account(d.n);
  const row = await d.web.shops.connect({
    domain: BIG_DOMAIN,
    customerKey: a.customer,
    clientId: a.clientId,
    clientSecret: a.clientSecret,
  });
  await d.web.shops.setPrimaryDomain(BIG_DOMAIN, big.primaryDomain);
  const syncStarted = performance.now();
  await startFirstSyncs({ db: d.t.db, queues: d.web.queues, config: d.config }, row.id);
  const catalogRun = async () =>
    d.t.db.syncRun.findFirst({ where: { shopId: row.id, kind: "catalog" }, orderBy: { startedAt: "desc" } });
  // Measured while the sync sends: its products are being read and sent, not yet queued.
  for (;;) {
    const run = await catalogRun();
    if (run && parseProgress(run.progress).sent > 0) break;
    if (run?.status === "failed") throw new Error(`fairness: the big sync failed: ${run.error}`);
    await sleep(100);
  }
  const during = await orders();
  // Not yet finished: "reading" while it reads and sends, "running" between its steps.
  const stillRunning = !["completed", "failed", "cancelled"].includes((await catalogRun())?.status ?? "completed");
  d.log(
    `fairness: orders during the big sync, slowest ${Math.max(...during)} ms (sync still running: ${stillRunning})`,
  );
  for (;;) {
    const run = await catalogRun();
    if (run?.status === "completed" || run?.status === "failed") break;
    await sleep(250);
  }
  const syncSeconds = (performance.now() - syncStarted) / 1000;
  const run = await catalogRun();
  const slowestBefore = Math.max(...before);
  const slowestDuring = Math.max(...during);
  const sorted = (v: number[]) => [...v].sort((x, y) => x - y);
  return {
    figures: {
      "fairness: the big shop's products": d.products,
      "fairness: its first catalog sync (s), status": `${Math.round(syncSeconds)}, ${run?.status}`,
      "fairness: other shops' orders, delivery → at the service, before it (ms, sorted)": sorted(before).join(", "),
      "fairness: the same while it sends (ms, sorted)": sorted(during).join(", "),
      "fairness: the sync was still running after the last of them": stillRunning ? "yes" : "NO",
    },
    ok: stillRunning && slowestDuring <= slowestBefore + FAIRNESS_EXTRA_MS,
    value: slowestDuring - slowestBefore,
  };
}

export async function runShopsBench(opts: {
  sizes: number[];
  provider?: DbProvider;
  /**
   * Products of the shop whose first sync the fairness phase starts, at up to 1,000 shops (at 10,000
   * the one worker has no core to spare for it); 0: no fairness phase.
   */
  fairnessProducts?: number;
}): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const n of opts.sizes)
    out.push(await runOne(n, opts.provider ?? "sqlite", n <= 1_000 ? (opts.fairnessProducts ?? 0) : 0));
  return out;
}
