import { createTtlCache, rememberPromise } from "../cache";

// The admin charts' sums, kept briefly in this process per shop and query: opening the page twice,
// or two tabs at once, pages through the service once. Only numbers are kept (no answer, name or
// comment), so nothing personal outlives the request; each app instance keeps its own.

const MAX_ENTRIES = 500;

export interface StatsCache {
  get<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export function createStatsCache(ttlMs: number, now: () => number = Date.now): StatsCache {
  const entries = createTtlCache<Promise<unknown>>({ max: MAX_ENTRIES, ttlMs, now });
  return {
    // A failure is not kept: the next view asks again.
    get: <T>(key: string, compute: () => Promise<T>) => rememberPromise(entries, key, compute) as Promise<T>,
  };
}

let shared: { ttlMs: number; cache: StatsCache } | undefined;

/** The process's cache for the configured time to live. */
export function statsCache(ttlMs: number): StatsCache {
  if (shared?.ttlMs !== ttlMs) shared = { ttlMs, cache: createStatsCache(ttlMs) };
  return shared.cache;
}
