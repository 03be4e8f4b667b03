import { Redis, type RedisOptions } from "ioredis";

// Who holds a Redis connection decides how it behaves when Redis is away:
// - "worker": blocking commands and reconnects forever (BullMQ requires maxRetriesPerRequest null);
// - "producer": used inside web requests; fails fast so a webhook is never acknowledged unless its
//   job was stored (no offline queue, one try per command, short connect timeout).
export type RedisRole = "worker" | "producer";

export function redisOptions(role: RedisRole): RedisOptions {
  const base: RedisOptions = {
    // Reconnect forever with a capped delay: Redis restarts must heal without a process restart.
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  };
  if (role === "worker") return { ...base, maxRetriesPerRequest: null, enableReadyCheck: true };
  return { ...base, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, commandTimeout: 2000 };
}

export function createRedis(url: string, role: RedisRole, onError?: (error: Error) => void): Redis {
  const redis = new Redis(url, redisOptions(role));
  // Without a listener ioredis prints every reconnect attempt as an unhandled error.
  redis.on("error", (error) => onError?.(error));
  return redis;
}

/** Resolves once the connection is ready (a producer with no offline queue must wait for it). */
export async function ready(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === "ready") return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off("ready", onReady);
    };
    redis.on("ready", onReady);
  });
}
