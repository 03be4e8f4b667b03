import { ReviewsRateLimitedError } from "../reviews";
import { ShopifyThrottledError } from "../shopify";

// What a job's use case says happened, in the domain's words: the worker adapter (workers/) alone
// knows how a queue delays, fails or retries a job. Deep code that meets a "not now" or a "never"
// throws RetryLater or GiveUp; the use case boundary (outcomeOf) turns them into the outcome. Any
// other error is a failure the queue retries with its backoff, as before.

export type Outcome<T> =
  | { kind: "done"; value: T }
  /**
   * Come back in `delayMs` without spending an attempt. `cause` is what to fail with when the job
   * cannot wait (run outside a worker); `otherwise` is the answer then instead, when there is one.
   */
  | { kind: "retry-later"; delayMs: number; reason: string; cause?: unknown; otherwise?: T }
  /** Never going to succeed: recorded with its reason, not retried. */
  | { kind: "give-up"; reason: string };

export class RetryLater extends Error {
  readonly delayMs: number;
  readonly otherwise?: unknown;
  constructor(reason: string, delayMs: number, options: { cause?: unknown; otherwise?: unknown } = {}) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RetryLater";
    this.delayMs = delayMs;
    if ("otherwise" in options) this.otherwise = options.otherwise;
  }
}

export class GiveUp extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "GiveUp";
  }
}

/** Runs a use case and says how it ended; errors other than RetryLater and GiveUp pass through. */
export async function outcomeOf<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { kind: "done", value: await fn() };
  } catch (error) {
    if (error instanceof GiveUp) return { kind: "give-up", reason: error.message };
    if (error instanceof RetryLater) {
      return {
        kind: "retry-later",
        delayMs: error.delayMs,
        reason: error.message,
        ...(error.cause === undefined ? {} : { cause: error.cause }),
        ...("otherwise" in error ? { otherwise: error.otherwise as T } : {}),
      };
    }
    throw error;
  }
}

/** The service's 429 as "come back after its Retry-After"; every other error unchanged. */
export function serviceLimitAsRetry(error: unknown): unknown {
  if (error instanceof ReviewsRateLimitedError) {
    return new RetryLater(`rate limited by the service for ${error.retryAfterMs} ms`, error.retryAfterMs, {
      cause: error,
    });
  }
  return error;
}

/** Runs a step that calls the service: a 429 becomes RetryLater (no attempt spent). */
export async function honouringServiceLimit<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw serviceLimitAsRetry(error);
  }
}

/** Shopify's throttling past the client's own waits as "come back when the bucket has refilled". */
export function shopifyThrottleAsRetry(error: unknown): unknown {
  if (error instanceof ShopifyThrottledError) {
    return new RetryLater(`throttled by Shopify for ${error.retryAfterMs} ms`, error.retryAfterMs, { cause: error });
  }
  return error;
}
