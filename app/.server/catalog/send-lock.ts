import type { Redis } from "ioredis";
import { withRenewedLock, type ConfirmHeld } from "../queues";

// One catalog request in flight per shop, across processes: the live flush and a full sync of the
// same shop take turns. The lock is renewed while its request runs and lapses `ttlMs` after its
// holder died (see renewed-lock.ts); workers pass WORKER_LOCK_MS.

export async function withShopSendLock<T>(
  redis: Redis,
  prefix: string,
  shopId: string,
  fn: (lease: AbortSignal, confirm: ConfirmHeld) => Promise<T>,
  options: { ttlMs?: number; waitMs?: number } = {},
): Promise<T> {
  return withRenewedLock(redis, `${prefix}:catalog:send-lock:${shopId}`, fn, {
    ttlMs: options.ttlMs ?? 30_000,
    waitMs: options.waitMs ?? 120_000,
    timeoutError: () => new Error(`catalog send lock of shop ${shopId} still held`),
  });
}
