import type { JobsOptions } from "bullmq";

// Shopify retries a failed webhook 8 times over 4 hours; our own retries cover an outage of the
// service of about the same length: 1 s doubling with jitter up to ~4.5 h over 15 attempts.
// Tests and drills scale the whole schedule down through JOB_BACKOFF_MS.
export function jobOptions(backoffMs = 1000): JobsOptions {
  return { ...defaultJobOptions, backoff: { type: "exponential", delay: backoffMs, jitter: 0.5 } };
}

export const defaultJobOptions: JobsOptions = {
  attempts: 15,
  backoff: { type: "exponential", delay: 1000, jitter: 0.5 },
  // Bounded history: enough to inspect recent work, never unbounded growth of Redis memory.
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
};

/** How long a webhook id is remembered for deduplication: Shopify may deliver up to a day late. */
export const WEBHOOK_DEDUPE_TTL_MS = 3 * 24 * 3600 * 1000;
