import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

// One catalog request in flight per shop, across processes: the live flush and a full sync of the
// same shop take turns. The lock expires by itself if its holder dies.

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export async function withShopSendLock<T>(
  redis: Redis,
  prefix: string,
  shopId: string,
  fn: () => Promise<T>,
  options: { ttlMs?: number; waitMs?: number } = {},
): Promise<T> {
  const key = `${prefix}:catalog:send-lock:${shopId}`;
  const token = randomUUID();
  const ttl = options.ttlMs ?? 60_000;
  const deadline = Date.now() + (options.waitMs ?? 120_000);
  let delay = 20;
  while ((await redis.set(key, token, "PX", ttl, "NX")) !== "OK") {
    if (Date.now() > deadline) throw new Error(`catalog send lock of shop ${shopId} still held`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 500);
  }
  try {
    return await fn();
  } finally {
    await redis.eval(RELEASE, 1, key, token);
  }
}
