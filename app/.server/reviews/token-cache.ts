import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { z } from "zod";

// Where access tokens live between calls. The Redis implementation is shared by every web and
// worker process, so an account asks the service for one token per expiry, not one per process.
// The token is stored in clear (like any session credential in Redis): the Redis instance must be
// private to the app. The client secret is never stored.

export interface CachedToken {
  token: string;
  /** Epoch ms at which the service stops accepting the token. */
  expiresAt: number;
}

export interface TokenCache {
  get(key: string): Promise<CachedToken | null>;
  /** Stores `value` for `ttlMs` (the time after which the client wants a fresh token). */
  set(key: string, value: CachedToken, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Takes the refresh lock of `key` for at most `ttlMs`. Resolves to a release function when this
   * caller holds it, null when someone else does.
   */
  lock(key: string, ttlMs: number): Promise<(() => Promise<void>) | null>;
}

const cachedTokenSchema = z.object({ token: z.string().min(1), expiresAt: z.number() });

/** Per-process cache, for tests, the CLI and single-process deployments. */
export function memoryTokenCache(options: { now?: () => number } = {}): TokenCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: CachedToken; until: number }>();
  const locks = new Map<string, { owner: string; until: number }>();
  return {
    async get(key) {
      const e = entries.get(key);
      if (!e) return null;
      if (e.until <= now()) {
        entries.delete(key);
        return null;
      }
      return { ...e.value };
    },
    async set(key, value, ttlMs) {
      entries.set(key, { value: { ...value }, until: now() + Math.max(1, ttlMs) });
    },
    async delete(key) {
      entries.delete(key);
    },
    async lock(key, ttlMs) {
      const held = locks.get(key);
      if (held && held.until > now()) return null;
      const owner = randomUUID();
      locks.set(key, { owner, until: now() + ttlMs });
      return async () => {
        if (locks.get(key)?.owner === owner) locks.delete(key);
      };
    },
  };
}

// Deletes the lock only if we still own it: after our TTL ran out someone else may hold it.
const RELEASE_LOCK = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * Cache shared through Redis. Keys: `${prefix}token:${key}` and `${prefix}token-lock:${key}`; a
 * prefix without a trailing `:` gets one.
 */
export function redisTokenCache(redis: Redis, prefix: string): TokenCache {
  const base = prefix === "" || prefix.endsWith(":") ? prefix : `${prefix}:`;
  const tokenKey = (key: string) => `${base}token:${key}`;
  const lockKey = (key: string) => `${base}token-lock:${key}`;
  return {
    async get(key) {
      const raw = await redis.get(tokenKey(key));
      if (raw === null) return null;
      try {
        const parsed = cachedTokenSchema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : null;
      } catch {
        // A value we cannot read is as good as no value: the caller fetches and overwrites it.
        return null;
      }
    },
    async set(key, value, ttlMs) {
      await redis.set(tokenKey(key), JSON.stringify(value), "PX", Math.max(1, Math.floor(ttlMs)));
    },
    async delete(key) {
      await redis.del(tokenKey(key));
    },
    async lock(key, ttlMs) {
      const owner = randomUUID();
      const ok = await redis.set(lockKey(key), owner, "PX", Math.max(1, Math.floor(ttlMs)), "NX");
      if (ok !== "OK") return null;
      return async () => {
        await redis.eval(RELEASE_LOCK, 1, lockKey(key), owner);
      };
    },
  };
}
