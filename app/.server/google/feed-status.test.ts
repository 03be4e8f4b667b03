import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import {
  buildOf,
  currentParts,
  feedStatusKey,
  mergeStatus,
  parseBuild,
  readFeedStatus,
  recordFeedBuild,
  recordFeedFetched,
  type FeedBuild,
} from "./feed-status";
import { emptyReport, PRODUCTS_REPORTED } from "./feed-writer";

// The last feed the route wrote, as the admin reads it: pure merging of parts, and the record on
// the shared Redis.

const prefix = uniquePrefix("feed-status");
let redis: Redis;
beforeAll(() => {
  redis = testRedis();
});
afterAll(async () => {
  redis.disconnect();
  await deletePrefix(prefix);
});

const build = (over: Partial<FeedBuild> = {}): FeedBuild => ({
  builtAt: "2026-11-20T08:00:00.000Z",
  part: 1,
  of: 1,
  included: 10,
  excluded: {},
  overSize: 0,
  bytes: 1000,
  products: {},
  ...over,
});

describe("a feed build as recorded", () => {
  it("GIVEN the writer's report THEN the build keeps its counts, products and the time", () => {
    const report = {
      ...emptyReport(),
      included: 60,
      excluded: { no_product_identifier: 3 },
      products: { "sku-1": ["no_product_identifier" as const] },
      bytes: 5000,
    };
    const b = buildOf(report, 2, 3, new Date("2026-11-27T10:00:00Z"));
    expect(b).toEqual({
      builtAt: "2026-11-27T10:00:00.000Z",
      part: 2,
      of: 3,
      included: 60,
      excluded: { no_product_identifier: 3 },
      overSize: 0,
      bytes: 5000,
      products: { "sku-1": ["no_product_identifier"] },
    });
    expect(parseBuild(JSON.stringify(b))).toEqual(b);
  });

  it("GIVEN something that is not a build THEN it is no build", () => {
    expect(parseBuild("{")).toBeNull();
    expect(parseBuild(JSON.stringify({ ...build(), included: -1 }))).toBeNull();
    expect(parseBuild(JSON.stringify({ ...build(), builtAt: "yesterday" }))).toBeNull();
  });

  it("GIVEN parts THEN they merge into one feed: counts summed, each product once with every reason", () => {
    const s = mergeStatus(
      [
        build({ included: 30, excluded: { empty_content: 1 }, products: { b: ["product_inactive"] } }),
        build({
          part: 2,
          builtAt: "2026-11-19T08:00:00.000Z",
          included: 25,
          excluded: { empty_content: 2, no_product_url: 1 },
          products: { a: ["no_product_url"], b: ["no_product_url"] },
        }),
      ],
      "2026-11-21T00:00:00.000Z",
    );
    expect(s).toMatchObject({
      builtAt: "2026-11-19T08:00:00.000Z",
      fetchedAt: "2026-11-21T00:00:00.000Z",
      parts: 2,
      included: 55,
      excluded: { empty_content: 3, no_product_url: 1 },
      bytes: 2000,
      products: [
        { key: "a", reasons: ["no_product_url"] },
        { key: "b", reasons: ["product_inactive", "no_product_url"] },
      ],
    });
  });

  it("GIVEN more products than a page can list THEN the merged list stays at the writer's cap", () => {
    const many = (from: number) =>
      Object.fromEntries(
        Array.from({ length: PRODUCTS_REPORTED }, (_, i) => [`k${from + i}`, ["product_inactive" as const]]),
      );
    const s = mergeStatus([build({ products: many(0) }), build({ part: 2, products: many(5000) })], null);
    expect(s.products).toHaveLength(PRODUCTS_REPORTED);
  });

  it("GIVEN a shop whose feed shrank from three parts to one THEN the old parts are not counted", () => {
    const old = [build({ part: 2, of: 3 }), build({ part: 3, of: 3 })];
    const fresh = build({ part: 1, of: 1, builtAt: "2026-11-25T00:00:00.000Z" });
    expect(currentParts([...old, fresh])).toEqual([fresh]);
  });
});

describe("the record on Redis", () => {
  it("GIVEN no feed written THEN there is no status", async () => {
    expect(await readFeedStatus(redis, prefix, "shop-none")).toBeNull();
  });

  it("GIVEN a whole feed written, then a revalidation THEN the status says both, with a time to live", async () => {
    await recordFeedBuild(redis, prefix, "shop-a", build({ included: 70, products: { x: ["no_product_identifier"] } }));
    let s = await readFeedStatus(redis, prefix, "shop-a");
    expect(s).toMatchObject({
      included: 70,
      builtAt: "2026-11-20T08:00:00.000Z",
      fetchedAt: "2026-11-20T08:00:00.000Z",
    });
    expect(s!.products).toEqual([{ key: "x", reasons: ["no_product_identifier"] }]);

    await recordFeedFetched(redis, prefix, "shop-a", new Date("2026-11-26T06:00:00Z"));
    s = await readFeedStatus(redis, prefix, "shop-a");
    expect(s).toMatchObject({
      included: 70,
      builtAt: "2026-11-20T08:00:00.000Z",
      fetchedAt: "2026-11-26T06:00:00.000Z",
    });
    const ttl = await redis.ttl(feedStatusKey(prefix, "shop-a"));
    expect(ttl).toBeGreaterThan(30 * 24 * 3600);
  });

  it("GIVEN a part rebuilt THEN its new build replaces the old one", async () => {
    await recordFeedBuild(redis, prefix, "shop-b", build({ included: 5 }));
    await recordFeedBuild(redis, prefix, "shop-b", build({ included: 8, builtAt: "2026-11-21T08:00:00.000Z" }));
    expect(await readFeedStatus(redis, prefix, "shop-b")).toMatchObject({ parts: 1, included: 8 });
  });

  it("GIVEN a Redis that cannot answer THEN recording says so instead of failing the feed", async () => {
    const broken = testRedis({ lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    expect(await recordFeedBuild(broken, prefix, "shop-c", build())).toBe(false);
    expect(await recordFeedFetched(broken, prefix, "shop-c", new Date())).toBe(false);
    broken.disconnect();
  });
});
