import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../test/helpers/db";
import { deletePrefix, redisCluster, redisUrl, uniquePrefix } from "../../test/helpers/redis";
import { createQueues, type Queues } from "../../app/.server/queues/queues";
import { QueueName } from "../../app/.server/queues/names";
import { backSyncShopPages, requestDueBackSyncs, scheduleBackSync } from "../../app/.server/backsync/schedule";
import { configSchema } from "../../app/.server/config";
import { BACKSYNC } from "../../app/.server/jobs";

// The back-sync's schedule with 10,000 connected shops on SQLite: its tick once read every shop's
// session in one query and failed from 997 shops on ("the query parameter limit supported by your
// database is exceeded"), so no shop's ratings were refreshed; then it asked a run of every shop
// every minute. Now a worker start puts the shops in the poll schedule, page by page, and a tick
// asks runs only for the shops due. Real SQLite file, real Redis.

const SHOPS = 10_000;
let t: TestDb;
let queues: Queues;
let prefix: string;
const domain = (i: number) => `scale-${String(i).padStart(5, "0")}.myshopify.com`;

// Seeded straight into the SQLite file in one transaction: through Prisma, 10,000 rows take about
// a millisecond each here (createMany included), and the test is about the tick, not the seeding.
function seedShops(file: string, shops: { domain: string; connected: boolean }[]) {
  const raw = new Database(file);
  const now = new Date().toISOString();
  const insert = raw.prepare(
    'INSERT INTO "Shop" ("id", "domain", "customerKey", "clientSecretEncrypted", "updatedAt") VALUES (?, ?, ?, ?, ?)',
  );
  raw.transaction(() => {
    for (const [i, s] of shops.entries())
      insert.run(
        `shop-${String(i).padStart(5, "0")}`,
        s.domain,
        s.connected ? `customer-${i}` : null,
        s.connected ? "v1:x:y:z" : null,
        now,
      );
  })();
  raw.close();
}

/** Offline sessions as Shopify's session storage keeps them (one place, so the seeding can change). */
function seedOfflineSessions(file: string, shops: string[]) {
  const raw = new Database(file);
  const insert = raw.prepare(
    'INSERT INTO "Session" ("id", "shop", "state", "isOnline", "accessToken") VALUES (?, ?, \'\', 0, ?)',
  );
  raw.transaction(() => {
    for (const shop of shops) insert.run(`offline_${shop}`, shop, "shpat_scale");
  })();
  raw.close();
}

beforeAll(async () => {
  t = await createTestDb("sqlite");
  prefix = uniquePrefix("backsync-shops");
  queues = createQueues({ redisUrl: redisUrl(), cluster: redisCluster(), prefix, role: "producer" });
  const file = t.url.replace(/^file:/, "");
  const all = Array.from({ length: SHOPS }, (_, i) => i);
  // Every 10th shop is not connected to the service, every 7th has no offline session.
  seedShops(
    file,
    all.map((n) => ({ domain: domain(n), connected: n % 10 !== 9 })),
  );
  seedOfflineSessions(file, all.filter((n) => n % 7 !== 3).map(domain));
  expect(await t.db.shop.count()).toBe(SHOPS);
}, 60_000);

afterAll(async () => {
  await queues?.close();
  await deletePrefix(prefix);
  await t?.drop();
});

const expected = () => Array.from({ length: SHOPS }, (_, i) => i).filter((n) => n % 10 !== 9 && n % 7 !== 3).length;

const config = configSchema.parse({ ...process.env, BACKSYNC_INTERVAL_MS: "50000" });

describe("back-sync schedule with 10,000 shops on SQLite", () => {
  it("GIVEN 10,000 shops THEN the shops with a connection and an offline session are read in pages, each once", async () => {
    const ids: string[] = [];
    for await (const page of backSyncShopPages({ db: t.db })) ids.push(...page);
    expect(ids).toHaveLength(expected());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("GIVEN 10,000 shops WHEN a worker starts THEN each is due once within an active period: a tick asks runs only for the shops due", async () => {
    const started = Date.now();
    expect(await scheduleBackSync({ queues, db: t.db, config })).toEqual({ enrolled: expected() });
    const enrolled = Date.now();
    const maintenance = queues.get(QueueName.maintenance);
    // (Less the scheduler's own next tick, a delayed job.)
    const queued = async () => {
      const jobs = await maintenance.getJobCounts("waiting", "delayed", "prioritized");
      return jobs.waiting + jobs.delayed + jobs.prioritized - 1;
    };
    // Nothing asked at the start: a tick a fifth of a period in asks about a fifth of the shops.
    expect(await queued()).toBe(0);
    const first = await requestDueBackSyncs({ queues, config }, started + 10_000);
    expect(first.shops).toBeGreaterThan(expected() * 0.15);
    expect(first.shops).toBeLessThan(expected() * 0.25);
    const rest = await requestDueBackSyncs({ queues, config }, enrolled + 50_000);
    expect(first.shops + rest.shops).toBe(expected());
    // (And the few shops whose moment of the day for their reconciliation fell in that minute.)
    expect(first.reconciles + rest.reconciles).toBeLessThan(20);
    expect(await queued()).toBe(expected() + first.reconciles + rest.reconciles);
    const sample = await maintenance.getJobs(["waiting"], 0, 99);
    expect(sample.filter((j) => j.name === BACKSYNC).length).toBeGreaterThan(80);
    // Every shop leased: the next tick asks no poll.
    expect((await requestDueBackSyncs({ queues, config }, enrolled + 60_000)).shops).toBe(0);
  });
});
