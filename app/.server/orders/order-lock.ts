import type { Redis } from "ioredis";
import { withRenewedLock, type ConfirmHeld } from "../queues";

// One piece of work per order at a time, across workers and processes. Two deliveries of the same
// order (orders/updated and orders/paid are sent together for one payment; a fulfillment comes with
// orders/fulfilled and fulfillments/create) would otherwise both read the same OrderState, and the
// older payload could be sent after the newer one, or one fulfillment's record could overwrite the
// other's. Under the lock each one reads what the previous one wrote.
//
// A Redis lock rather than queue-side grouping: BullMQ's per-group concurrency is a paid feature,
// and the deliveries of one order come through several topics. The lock is renewed while its holder
// works and lapses `ttlMs` after the holder died (see renewed-lock.ts); workers pass WORKER_LOCK_MS.
// It lapses as well under a holder that Redis stopped answering: that holder must then not send
// what it read under the lock, since the next one may have sent a newer form meanwhile; and when
// its request was already sent, it records nothing of it and has the newest form sent after it
// (order-calls.ts, the fence).

export class OrderLockTimeoutError extends Error {
  constructor(readonly orderId: string) {
    super(`order ${orderId} is still being processed by another job; will retry`);
    this.name = "OrderLockTimeoutError";
  }
}

export class OrderLockLostError extends Error {
  /** `sent`: a request went out and may have landed after the next holder's newer one. */
  constructor(
    readonly orderId: string,
    readonly sent = false,
  ) {
    super(`order ${orderId}: its lock lapsed while this job waited on Redis; will retry`);
    this.name = "OrderLockLostError";
  }
}

export function orderLockKey(prefix: string, shopId: string, orderId: string): string {
  return `${prefix}:orders:lock:${shopId}:${orderId}`;
}

/**
 * Runs `fn` holding the order's lock; waits for it up to `waitMs`, then throws (the job retries).
 * `lease` aborts once the lock may be another job's.
 */
export async function withOrderLock<T>(
  redis: Redis,
  prefix: string,
  shopId: string,
  orderId: string,
  fn: (lease: AbortSignal, confirm: ConfirmHeld) => Promise<T>,
  options: { ttlMs?: number; waitMs?: number } = {},
): Promise<T> {
  return withRenewedLock(redis, orderLockKey(prefix, shopId, orderId), fn, {
    ttlMs: options.ttlMs ?? 30_000,
    waitMs: options.waitMs ?? 60_000,
    timeoutError: () => new OrderLockTimeoutError(orderId),
  });
}
