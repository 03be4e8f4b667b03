import { DelayedError, type Job } from "bullmq";
import { ReviewsRateLimitedError } from "../../app/.server/reviews";

/**
 * Runs a job step that calls the service. A 429 moves the job to the delayed set for the service's
 * Retry-After (no attempt spent); every other error is left to the queue: retryable kinds back
 * off and retry, permanent ones are recorded by the caller.
 */
export async function honouringRetryAfter<T>(job: Job, token: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ReviewsRateLimitedError && token) {
      await job.moveToDelayed(Date.now() + error.retryAfterMs, token);
      throw new DelayedError(`rate limited by the service for ${error.retryAfterMs} ms`);
    }
    throw error;
  }
}
