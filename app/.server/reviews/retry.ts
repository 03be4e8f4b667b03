import { setTimeout as sleep } from "node:timers/promises";
import { ReviewsRateLimitedError, ReviewsRetryableError } from "./errors";

export interface RetryOnceOptions {
  /** Pause before the second attempt after a retryable error. Default 250 ms. */
  delayMs?: number;
  /** A 429 asking for a longer wait than this is not retried here. Default 2000 ms. */
  maxWaitMs?: number;
}

/**
 * One more attempt for an interactive, idempotent call (an admin page GET) after a transient
 * failure. The client itself never loops: background work is retried by the queues, which own
 * backoff and attempt counts. Do not wrap non-idempotent calls (POST orders v1, submissions).
 */
export async function retryIdempotentOnce<T>(fn: () => Promise<T>, options: RetryOnceOptions = {}): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ReviewsRetryableError && e.reason !== "aborted") {
      await sleep(options.delayMs ?? 250);
      return fn();
    }
    if (e instanceof ReviewsRateLimitedError && e.retryAfterMs <= (options.maxWaitMs ?? 2_000)) {
      await sleep(e.retryAfterMs);
      return fn();
    }
    throw e;
  }
}
