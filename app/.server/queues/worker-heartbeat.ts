import { hostname } from "node:os";
import type { Redis } from "ioredis";

// Whether a worker is alive, for the admin's Sync page: each worker process writes the time into
// one sorted set every few seconds; a process seen within the last HEARTBEAT_STALE_MS counts.

export const HEARTBEAT_EVERY_MS = 5_000;
export const HEARTBEAT_STALE_MS = 30_000;

const key = (prefix: string) => `${prefix}:workers:heartbeat`;

/** Starts beating for this process; the function returned stops it and takes the process off. */
export function startHeartbeat(
  redis: Redis,
  prefix: string,
  onError: (e: Error) => void = () => {},
): () => Promise<void> {
  const member = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const beat = () =>
    redis
      .multi()
      .zadd(key(prefix), Date.now(), member)
      .zremrangebyscore(key(prefix), 0, Date.now() - 10 * HEARTBEAT_STALE_MS)
      .exec()
      .catch(onError);
  void beat();
  const timer = setInterval(beat, HEARTBEAT_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await redis.zrem(key(prefix), member).catch(onError);
  };
}

/** The newest heartbeat of any worker, or null when none beat within HEARTBEAT_STALE_MS. */
export async function lastHeartbeat(
  redis: Redis,
  prefix: string,
  now = Date.now(),
): Promise<{ at: number; workers: number } | null> {
  const rows = await redis.zrangebyscore(key(prefix), now - HEARTBEAT_STALE_MS, "+inf", "WITHSCORES");
  if (!rows.length) return null;
  let at = 0;
  for (let i = 1; i < rows.length; i += 2) at = Math.max(at, Number(rows[i]));
  return { at, workers: rows.length / 2 };
}
