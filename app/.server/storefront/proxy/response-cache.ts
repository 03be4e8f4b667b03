import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

// Rendered proxy answers kept in Redis for a short time (PROXY_CACHE_MS), shared by every app
// process: a busy product page's sorts and pages cost one call upstream per window, not one per
// shopper. Only answers that do not depend on the customer are kept (the caller decides), and only
// successful ones. Concurrent misses of one key in a process share one computation.

export interface ResponseCache {
  get(key: string): Promise<string | null>;
  /** The cached value, or `compute()` stored for `ttlMs`; concurrent callers of one key share it. */
  getOrCompute(key: string, compute: () => Promise<string>): Promise<{ value: string; hit: boolean }>;
}

export function proxyCacheKey(prefix: string, parts: { shop: string; route: string; normalQuery: string }): string {
  // Hashed: the query carries shopper-chosen text (topics), kept out of key names and bounded.
  const digest = createHash("sha256").update(`${parts.route}?${parts.normalQuery}`).digest("base64url").slice(0, 32);
  return `${prefix}:proxy:cache:${parts.shop}:${digest}`;
}

export function createResponseCache(redis: Redis, ttlMs: number): ResponseCache {
  const inFlight = new Map<string, Promise<string>>();
  const get = async (key: string) => (ttlMs > 0 ? redis.get(key) : null);
  return {
    get,
    async getOrCompute(key, compute) {
      const cached = await get(key);
      if (cached !== null) return { value: cached, hit: true };
      let pending = inFlight.get(key);
      if (!pending) {
        pending = compute().then(async (value) => {
          if (ttlMs > 0) await redis.set(key, value, "PX", ttlMs).catch(() => undefined);
          return value;
        });
        inFlight.set(key, pending);
        void pending.finally(() => inFlight.delete(key)).catch(() => undefined);
      }
      return { value: await pending, hit: false };
    },
  };
}
