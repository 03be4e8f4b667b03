import { LRUCache } from "lru-cache";

// The process's short-lived caches (admin chart sums, orders' product data, logged-in shoppers,
// the worker's shop rows) share this one shape over lru-cache: at most `max` entries, the least
// recently used out first, and an entry no longer served once `ttlMs` have passed since it was set.

export interface TtlCacheOptions {
  /** Entries kept at most. */
  max: number;
  /** How long an entry is served after it was set; 0 or less keeps nothing. */
  ttlMs: number;
  /** Epoch ms; tests pass their own clock. */
  now?: () => number;
}

export interface TtlCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  readonly size: number;
}

export function createTtlCache<V extends NonNullable<unknown>>(options: TtlCacheOptions): TtlCache<V> {
  const { max, ttlMs } = options;
  if (ttlMs <= 0) {
    return { get: () => undefined, set() {}, delete() {}, size: 0 };
  }
  const now = options.now ?? Date.now;
  const lru = new LRUCache<string, V>({
    max,
    ttl: ttlMs,
    // lru-cache caches the clock for this long behind a timer; callers here read it a few times per
    // request, and an injected clock must be read every time.
    ttlResolution: 0,
    // lru-cache takes a start time of 0 for "no start" (never stale): clocks of tests begin at 0.
    perf: { now: () => now() + 1 },
  });
  return {
    get(key) {
      // lru-cache still serves an entry whose age equals its ttl; here it is stale from that moment,
      // as the callers always counted it.
      if (lru.getRemainingTTL(key) > 0) return lru.get(key);
      lru.delete(key);
      return undefined;
    },
    set(key, value) {
      lru.set(key, value);
    },
    delete(key) {
      lru.delete(key);
    },
    get size() {
      return lru.size;
    },
  };
}

/**
 * The promise kept under `key`, or `compute()`'s, kept in its place: callers at the same moment
 * share one read. A rejected promise is not kept, so the next caller asks again.
 */
export function rememberPromise<T>(cache: TtlCache<Promise<T>>, key: string, compute: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit;
  const value = compute();
  cache.set(key, value);
  value.catch(() => {
    if (cache.get(key) === value) cache.delete(key);
  });
  return value;
}
