import { describe, expect, it } from "vitest";
import { createTtlCache } from "./ttl-cache";

describe("the process's TTL caches", () => {
  it("GIVEN an entry set at time 0 THEN it is served until its time to live has passed, not at that moment", () => {
    let now = 0;
    const cache = createTtlCache<string>({ max: 10, ttlMs: 1000, now: () => now });
    cache.set("a", "first");
    now = 999;
    expect(cache.get("a")).toBe("first");
    now = 1000;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("GIVEN an entry set again THEN its time to live starts again", () => {
    let now = 5_000;
    const cache = createTtlCache<string>({ max: 10, ttlMs: 1000, now: () => now });
    cache.set("a", "first");
    now = 5_900;
    cache.set("a", "second");
    now = 6_500;
    expect(cache.get("a")).toBe("second");
  });

  it("GIVEN more entries than its bound THEN the least recently used go first", () => {
    const cache = createTtlCache<number>({ max: 3, ttlMs: 60_000, now: () => 0 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(1);
    cache.set("d", 4);
    expect(cache.size).toBe(3);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).toEqual([1, undefined, 3, 4]);
  });

  it("GIVEN a deleted entry THEN it is gone", () => {
    const cache = createTtlCache<number>({ max: 3, ttlMs: 60_000 });
    cache.set("a", 1);
    cache.delete("a");
    expect(cache.get("a")).toBeUndefined();
  });

  it("GIVEN no time to live THEN nothing is kept", () => {
    const cache = createTtlCache<number>({ max: 3, ttlMs: 0 });
    cache.set("a", 1);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("GIVEN the real clock THEN an entry is served right after it was set", () => {
    const cache = createTtlCache<number>({ max: 3, ttlMs: 60_000 });
    cache.set("a", 1);
    expect(cache.get("a")).toBe(1);
  });
});
