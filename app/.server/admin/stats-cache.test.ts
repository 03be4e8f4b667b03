import { describe, expect, it } from "vitest";
import { createStatsCache } from "./stats-cache";

describe("the charts' short cache", () => {
  it("GIVEN a key asked twice within its time THEN it is computed once, and again after", async () => {
    let now = 0;
    let runs = 0;
    const cache = createStatsCache(60_000, () => now);
    const compute = async () => ++runs;
    expect(await Promise.all([cache.get("shop-a", compute), cache.get("shop-a", compute)])).toEqual([1, 1]);
    expect(await cache.get("shop-b", compute)).toBe(2);
    now = 59_999;
    expect(await cache.get("shop-a", compute)).toBe(1);
    now = 60_000;
    expect(await cache.get("shop-a", compute)).toBe(3);
  });

  it("GIVEN a failure THEN it is not kept: the next call computes again", async () => {
    const cache = createStatsCache(60_000, () => 0);
    await expect(cache.get("k", () => Promise.reject(new Error("service down")))).rejects.toThrow("service down");
    expect(await cache.get("k", async () => "fine")).toBe("fine");
  });

  it("GIVEN no time to live THEN every call computes", async () => {
    let runs = 0;
    const cache = createStatsCache(0, () => 0);
    await cache.get("k", async () => ++runs);
    expect(await cache.get("k", async () => ++runs)).toBe(2);
  });
});
