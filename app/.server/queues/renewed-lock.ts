import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

// A Redis lock kept for as long as its holder works and lost at most `ttlMs` after the holder dies:
// set with a short TTL and extended every third of it while `fn` runs (BullMQ keeps its job locks
// the same way). A fixed TTL would have to outlast the slowest call, and then a SIGKILLed worker
// would block the next holder for all of it; renewed, a killed worker's lock lapses together with
// its job lock (WORKER_LOCK_MS) and the job that takes over finds it free.
//
// The flip side: a holder that Redis stops answering (restarted, unreachable) is not dead, and its
// lock lapses under it all the same while its next command waits to be sent. `fn` is given a signal
// that aborts once the lock may be someone else's, so that it does not act on what it read under
// the lock: ttlMs after the newest set or renewal was sent without one confirmed since, or at once
// when a renewal finds the key gone or another holder's. `confirm` checks the token in Redis itself
// (and extends it): the fence before a holder records the effect of a request that may have outlived
// the lock.

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

export interface RenewedLockOptions {
  ttlMs: number;
  /** How long to wait for a held lock before giving up with `timeoutError()`. */
  waitMs: number;
  timeoutError: () => Error;
}

/** Whether the lock is still this holder's, asked of Redis (the key extended if so). */
export type ConfirmHeld = () => Promise<boolean>;

/**
 * Runs `fn` holding the lock `key`; waits for it up to `waitMs`. `lease` aborts once the lock may
 * have passed to another holder; `confirm` asks Redis.
 */
export async function withRenewedLock<T>(
  redis: Redis,
  key: string,
  fn: (lease: AbortSignal, confirm: ConfirmHeld) => Promise<T>,
  options: RenewedLockOptions,
): Promise<T> {
  const token = randomUUID();
  const deadline = Date.now() + options.waitMs;
  let delay = 10;
  let sentAt = Date.now();
  while ((await redis.set(key, token, "PX", options.ttlMs, "NX")) !== "OK") {
    if (Date.now() > deadline) throw options.timeoutError();
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 250);
    sentAt = Date.now();
  }
  const lease = new AbortController();
  const lost = () => lease.abort(new Error(`lock ${key} lapsed or taken over`));
  // Redis counts the TTL from when it ran the command, which is after it was sent: counted from
  // the sending, the lease ends no later than the key.
  let expiry: NodeJS.Timeout | undefined;
  const heldUntil = (sent: number) => {
    if (lease.signal.aborted) return;
    clearTimeout(expiry);
    expiry = setTimeout(lost, sent + options.ttlMs - Date.now());
  };
  heldUntil(sentAt);
  const renew = setInterval(
    () => {
      const sent = Date.now();
      redis.eval(EXTEND, 1, key, token, String(options.ttlMs)).then(
        (extended) => (extended === 1 ? heldUntil(sent) : lost()),
        // A missed renewal is not fatal: the next one comes a third of the TTL later.
        () => undefined,
      );
    },
    Math.max(50, Math.floor(options.ttlMs / 3)),
  );
  const confirm: ConfirmHeld = async () => {
    if (lease.signal.aborted) return false;
    const sent = Date.now();
    const extended = (await redis.eval(EXTEND, 1, key, token, String(options.ttlMs))) === 1;
    if (extended) heldUntil(sent);
    else lost();
    return extended && !lease.signal.aborted;
  };
  try {
    return await fn(lease.signal, confirm);
  } finally {
    clearInterval(renew);
    clearTimeout(expiry);
    await redis.eval(RELEASE, 1, key, token);
  }
}
