import Database from "better-sqlite3";
import type { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../test/helpers/db";
import { deletePrefix, redisUrl, uniquePrefix } from "../../test/helpers/redis";
import { createQueues, type Queues } from "../../app/.server/queues/queues";
import { QueueName } from "../../app/.server/queues/names";
import { BACKSYNC } from "../../app/.server/backsync/schedule";
import { backSyncTick } from "./backsync.processor";
import { backSyncShops } from "../../app/.server/backsync/schedule";

// The back-sync's periodic tick with 10,000 connected shops on SQLite: it once read every shop's
// session in one query and failed from 997 shops on ("the query parameter limit supported by your
// database is exceeded"), so no shop's ratings were refreshed. Real SQLite file, real Redis.

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
  queues = createQueues({ redisUrl: redisUrl(), prefix, role: "producer" });
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

describe("back-sync tick with 10,000 shops on SQLite", () => {
  it("GIVEN 10,000 shops THEN the shops with a connection and an offline session are read in pages, each once", async () => {
    const ids = await backSyncShops({ db: t.db });
    expect(ids).toHaveLength(expected());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("GIVEN 10,000 shops THEN the tick asks one run for each of them", async () => {
    const result = await backSyncTick({ reconcile: false })({} as Job, {
      db: t.db,
      queues,
    });
    expect(result).toEqual({ shops: expected() });
    const jobs = await queues.get(QueueName.maintenance).getJobCounts("waiting", "delayed", "prioritized");
    expect(jobs.waiting + jobs.delayed + jobs.prioritized).toBe(expected());
    const sample = await queues.get(QueueName.maintenance).getJobs(["waiting"], 0, 0);
    expect(sample[0].name).toBe(BACKSYNC);
  });
});
