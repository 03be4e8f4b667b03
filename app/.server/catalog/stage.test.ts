import type { Redis } from "ioredis";
import { legacyVersion } from "../mapping/change-version";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { catalogPayloadHash } from "../mapping/product.mapper";
import type { CatalogProduct } from "../reviews";
import { keyspaceOf } from "../queues/keyspace";
import { createPendingChanges, pendingChangesKeys, type PendingChanges } from "./pending-changes";
import { createProductMirror, type ProductMirror } from "./product-mirror.repository";
import { stageProduct } from "./stage";

// Skip-unchanged and staging as one step, on real Redis and a real database: what the service
// holds (the mirror, copied into Redis) decides whether a change waits for the next batch.

const prefix = uniquePrefix("stage");
let t: TestDb;
let redis: Redis;
/** The key names of the Redis the file runs on: tagged by shop on a cluster. */
let keys: ReturnType<typeof pendingChangesKeys>;
let pending: PendingChanges;
let mirror: ProductMirror;
let shopId: string;
let n = 0;

const product = (name: string): CatalogProduct => ({ sku: "7001", name, categories: ["Shoes"] }) as CatalogProduct;
const accept = async (p: CatalogProduct) => {
  const item = { productId: p.sku, sku: p.sku, hash: catalogPayloadHash(p), product: p };
  await mirror.recordAccepted(shopId, [item]);
  await pending.rememberAccepted(shopId, new Map([[item.productId, item.hash]]));
};

beforeAll(async () => {
  t = await createTestDb("sqlite");
  redis = testRedis();
  pending = createPendingChanges(redis, prefix);
  keys = pendingChangesKeys(keyspaceOf(redis, prefix));
  mirror = createProductMirror(t.db);
});

beforeEach(async () => {
  const shop = await t.db.shop.create({ data: { domain: `stage-${++n}.myshopify.com` } });
  shopId = shop.id;
});

afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
  await t.drop();
});

describe("staging a catalog change", () => {
  it("GIVEN the payload the service holds THEN nothing is staged", async () => {
    await accept(product("Runner"));
    expect(await stageProduct({ mirror, pending }, shopId, "7001", product("Runner"))).toEqual({ staged: false });
    expect(await pending.pendingCount(shopId)).toBe(0);
  });

  it("GIVEN a change and then the accepted payload again (the merchant reverted) THEN the waiting change is dropped", async () => {
    await accept(product("Runner"));
    expect((await stageProduct({ mirror, pending }, shopId, "7001", product("Runner v2"))).staged).toBe(true);
    expect(await pending.pendingCount(shopId)).toBe(1);
    expect(await stageProduct({ mirror, pending }, shopId, "7001", product("Runner"))).toEqual({ staged: false });
    expect(await pending.pendingCount(shopId)).toBe(0);
    expect((await pending.timing(shopId)).waitingSince).toBeNull();
  });

  it("GIVEN another payload in flight THEN the accepted payload is staged again, to win over it", async () => {
    await accept(product("Runner"));
    await stageProduct({ mirror, pending }, shopId, "7001", product("Runner v2"));
    expect((await pending.take(shopId, 200)).map((i) => i.product.name)).toEqual(["Runner v2"]);
    const back = await stageProduct({ mirror, pending }, shopId, "7001", product("Runner"));
    expect(back.staged).toBe(true);
  });

  it("GIVEN Redis does not know the product THEN the mirror answers once, and a product never accepted is staged", async () => {
    // Accepted in the database only (Redis lost its copy, or the shop was idle for a week).
    const p = product("Runner");
    await mirror.recordAccepted(shopId, [{ productId: "7001", sku: "7001", hash: catalogPayloadHash(p), product: p }]);
    expect(await stageProduct({ mirror, pending }, shopId, "7001", p)).toEqual({ staged: false });
    const fresh = { ...product("Trail"), sku: "7002" };
    expect((await stageProduct({ mirror, pending }, shopId, "7002", fresh)).staged).toBe(true);
    expect(await redis.hgetall(keys.accepted(shopId))).toEqual({
      "7001": catalogPayloadHash(p),
      "7002": "-",
    });
  });

  it("GIVEN a version older than the one the service holds THEN it is not staged, also when only the mirror still knows that version", async () => {
    const v2 = product("Runner v2");
    await mirror.recordAccepted(shopId, [
      { productId: "7001", sku: "7001", hash: catalogPayloadHash(v2), product: v2, sourceUpdatedAt: 2_000_000 },
    ]);
    expect(
      await stageProduct({ mirror, pending }, shopId, "7001", product("Runner v1"), { sourceUpdatedAt: 1_000_000 }),
    ).toEqual({ staged: false, stale: true });
    expect(
      (await stageProduct({ mirror, pending }, shopId, "7001", product("Runner v3"), { sourceUpdatedAt: 3_000_000 }))
        .staged,
    ).toBe(true);
    expect(await pending.newest(shopId, ["7001"])).toEqual(new Map([["7001", legacyVersion(3_000_000)]]));
  });

  it("GIVEN two changes of a product inside the window THEN what waits is their merge, as the service merges repeated SKUs", async () => {
    await accept(product("Runner"));
    const v1 = { ...product("Runner v1"), description: "Light trail shoe.", variants: ["41", "42"] } as CatalogProduct;
    const v2 = { ...product("Runner v2"), variants: ["42", "43"] } as CatalogProduct;
    await stageProduct({ mirror, pending }, shopId, "7001", v1, { sourceUpdatedAt: 1_000_000 });
    await stageProduct({ mirror, pending }, shopId, "7001", v2, { sourceUpdatedAt: 2_000_000 });
    const waiting = await pending.staged(shopId, "7001");
    // Newer fields win, a field only the older version has stays, variants are united.
    expect(waiting?.product).toEqual({ ...v2, description: "Light trail shoe.", variants: ["41", "42", "43"] });
    // Compared with the next change: the newer version's own hash, not the merge's.
    expect(waiting?.hash).toBe(catalogPayloadHash(v2));
    expect(waiting?.sourceUpdatedAt).toBe(2_000_000);
    // The same state again: the merged change stays as it is.
    await stageProduct({ mirror, pending }, shopId, "7001", v2, { sourceUpdatedAt: 2_000_000 });
    expect((await pending.staged(shopId, "7001"))?.product).toEqual(waiting?.product);
    expect(await pending.pendingCount(shopId)).toBe(1);
  });

  it("GIVEN the shop's pending state is cleared (shop/redact) THEN its accepted hashes go too", async () => {
    await accept(product("Runner"));
    await pending.clear(shopId);
    expect(await redis.exists(keys.accepted(shopId))).toBe(0);
  });
});

describe("taking a batch", () => {
  const stageNew = async (i: number) => {
    const p = { ...product(`P${i}`), sku: String(8000 + i) };
    const item = { productId: p.sku, sku: p.sku, hash: `h${i}`, product: p };
    if ((await pending.stageIfChanged(shopId, item)).kind === "unknown") {
      await pending.rememberAccepted(shopId, new Map([[p.sku, "-"]]));
      await pending.stageIfChanged(shopId, item);
    }
  };

  afterEach(() => {
    vi.useRealTimers();
  });

  it("GIVEN more waiting changes than a batch holds THEN the oldest go first, whatever order the hash keeps", async () => {
    // Over 128 fields a Redis hash keeps no order: without the waiting order, some changes would
    // be passed over flush after flush.
    for (let i = 0; i < 300; i++) await stageNew(i);
    const first = await pending.take(shopId, 200);
    expect(first.map((i) => Number(i.sku)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 200 }, (_, i) => 8000 + i),
    );
    await pending.ack(shopId);
    expect((await pending.take(shopId, 200)).length).toBe(100);
  });

  it("GIVEN a batch leaves THEN what it left behind keeps its own waiting time (it is not made to wait again)", async () => {
    // Only Date is faked: the stamps below are what the staging records, Redis runs for real.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    for (let i = 0; i < 200; i++) await stageNew(i);
    vi.setSystemTime(1_000_500);
    for (let i = 200; i < 250; i++) await stageNew(i);
    vi.setSystemTime(1_001_000);
    await stageNew(0); // a newer change of a waiting product keeps its place
    expect(await pending.timing(shopId)).toMatchObject({
      waiting: 250,
      waitingSince: 1_000_000,
      lastStagedAt: 1_001_000,
    });
    vi.setSystemTime(1_003_000);
    expect((await pending.take(shopId, 200)).map((i) => Number(i.sku) - 8000).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 200 }, (_, i) => i),
    );
    expect(await pending.timing(shopId)).toMatchObject({ waiting: 50, inflight: true, waitingSince: 1_000_500 });
  });

  it("GIVEN pending changes outside the waiting order (written by an older release) THEN they are taken, not stranded", async () => {
    const p = { ...product("Legacy"), sku: "8999" };
    await redis.hset(
      keys.pending(shopId),
      p.sku,
      JSON.stringify({ productId: p.sku, sku: p.sku, hash: "h", product: p }),
    );
    await redis.set(keys.last(shopId), "1234");
    expect(await pending.timing(shopId)).toMatchObject({ waiting: 1, waitingSince: 1234 });
    expect((await pending.take(shopId, 200)).map((i) => i.sku)).toEqual(["8999"]);
    await pending.ack(shopId);
    expect(await pending.timing(shopId)).toMatchObject({ waiting: 0, inflight: false, waitingSince: null });
  });
});
