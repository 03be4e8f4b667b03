import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

// A Redis lock kept for as long as its holder works and lost at most `ttlMs` after the holder dies:
// set with a short TTL and extended every third of it while `fn` runs (BullMQ keeps its job locks
// the same way). A fixed TTL would have to outlast the slowest call, and then a SIGKILLed worker
// would block the next holder for all of it; renewed, a killed worker's lock lapses together with
// its job lock (WORKER_LOCK_MS) and the job that takes over finds it free.

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

export interface RenewedLockOptions {
  ttlMs: number;
  /** How long to wait for a held lock before giving up with `timeoutError()`. */
  waitMs: number;
  timeoutError: () => Error;
}

/** Runs `fn` holding the lock `key`; waits for it up to `waitMs`. */
export async function withRenewedLock<T>(
  redis: Redis,
  key: string,
  fn: () => Promise<T>,
  options: RenewedLockOptions,
): Promise<T> {
  const token = randomUUID();
  const deadline = Date.now() + options.waitMs;
  let delay = 10;
  while ((await redis.set(key, token, "PX", options.ttlMs, "NX")) !== "OK") {
    if (Date.now() > deadline) throw options.timeoutError();
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 250);
  }
  const renew = setInterval(
    () => {
      // A missed renewal is not fatal: the next one comes a third of the TTL later.
      redis.eval(EXTEND, 1, key, token, String(options.ttlMs)).catch(() => undefined);
    },
    Math.max(50, Math.floor(options.ttlMs / 3)),
  );
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await redis.eval(RELEASE, 1, key, token);
  }
}
