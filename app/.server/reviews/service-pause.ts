import type { Redis } from "ioredis";
import { tokenCacheKey, type TokenAccount } from "./token";

// "Retry-After" is the service telling the client to wait, and the client is the account, not the
// one call that happened to get the 429: after it, every call of the account waits, in every
// process. The client checks the pause right before it sends, so a call prepared while a peer was
// being told to wait does not go out either.

export interface ServicePause {
  /** How long calls must still wait, 0 when they need not. */
  remainingMs(): Promise<number>;
  /** Makes calls wait `ms` from now, unless they already wait longer. */
  hold(ms: number): Promise<void>;
}

/** Per-process pause, for tests, the CLI and single-process deployments. */
export function memoryServicePause(now: () => number = Date.now): ServicePause {
  let until = 0;
  return {
    async remainingMs() {
      return Math.max(0, until - now());
    },
    async hold(ms) {
      until = Math.max(until, now() + ms);
    },
  };
}

// Keeps the longer of the running pause and the new one.
const HOLD = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1
`;

/** Pause shared through Redis, one per account: `${prefix}:reviews-pause:${tokenCacheKey}`. */
export function redisServicePause(
  redis: Redis,
  prefix: string,
  account: Pick<TokenAccount, "authUrl" | "apiUrl" | "clientId">,
): ServicePause {
  const key = `${prefix}:reviews-pause:${tokenCacheKey(account)}`;
  return {
    async remainingMs() {
      // PTTL is -2 without a pause and -1 for a key without expiry (never written by us).
      return Math.max(0, await redis.pttl(key));
    },
    async hold(ms) {
      if (ms > 0) await redis.eval(HOLD, 1, key, String(Math.ceil(ms)));
    },
  };
}
