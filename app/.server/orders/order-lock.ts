import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

// One piece of work per order at a time, across workers and processes. Two deliveries of the same
// order (orders/updated and orders/paid are sent together for one payment; a fulfillment comes with
// orders/fulfilled and fulfillments/create) would otherwise both read the same OrderState, and the
// older payload could be sent after the newer one, or one fulfillment's record could overwrite the
// other's. Under the lock each one reads what the previous one wrote.
//
// A Redis lock rather than queue-side grouping: BullMQ's per-group concurrency is a paid feature,
// and the deliveries of one order come through several topics. The lock expires by itself if its
// holder dies; its TTL is above the longest service call (timeouts: token 10 s + call 15 s, twice
// after a 401).

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export class OrderLockTimeoutError extends Error {
  constructor(readonly orderId: string) {
    super(`order ${orderId} is still being processed by another job; will retry`);
    this.name = "OrderLockTimeoutError";
  }
}

export function orderLockKey(prefix: string, shopId: string, orderId: string): string {
  return `${prefix}:orders:lock:${shopId}:${orderId}`;
}

/** Runs `fn` holding the order's lock; waits for it up to `waitMs`, then throws (the job retries). */
export async function withOrderLock<T>(
  redis: Redis,
  prefix: string,
  shopId: string,
  orderId: string,
  fn: () => Promise<T>,
  options: { ttlMs?: number; waitMs?: number } = {},
): Promise<T> {
  const key = orderLockKey(prefix, shopId, orderId);
  const token = randomUUID();
  const ttl = options.ttlMs ?? 90_000;
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  let delay = 10;
  while ((await redis.set(key, token, "PX", ttl, "NX")) !== "OK") {
    if (Date.now() > deadline) throw new OrderLockTimeoutError(orderId);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 250);
  }
  try {
    return await fn();
  } finally {
    await redis.eval(RELEASE, 1, key, token);
  }
}
