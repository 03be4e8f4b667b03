// The admin charts' sums, kept briefly in this process per shop and query: opening the page twice,
// or two tabs at once, pages through the service once. Only numbers are kept (no answer, name or
// comment), so nothing personal outlives the request; each app instance keeps its own.

const MAX_ENTRIES = 500;

interface Entry {
  at: number;
  value: Promise<unknown>;
}

export interface StatsCache {
  get<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export function createStatsCache(ttlMs: number, now: () => number = Date.now): StatsCache {
  const entries = new Map<string, Entry>();
  return {
    get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.value as Promise<T>;
      const value = compute();
      if (ttlMs <= 0) return value;
      entries.delete(key);
      entries.set(key, { at: now(), value });
      // A failure is not kept: the next view asks again.
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      // The oldest first out (a Map keeps insertion order).
      while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      return value;
    },
  };
}

let shared: { ttlMs: number; cache: StatsCache } | undefined;

/** The process's cache for the configured time to live. */
export function statsCache(ttlMs: number): StatsCache {
  if (shared?.ttlMs !== ttlMs) shared = { ttlMs, cache: createStatsCache(ttlMs) };
  return shared.cache;
}
