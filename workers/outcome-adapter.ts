import { DelayedError, type Job } from "bullmq";
import { outcomeOf, type Outcome, type WebhookJob } from "../app/.server/jobs";
import type { WorkerContext } from "./context";
import { PermanentJobError } from "./processors/errors";
import type { TopicHandler } from "./processors/registry";

// A use case's outcome in BullMQ's terms, for every processor:
// - done: the job completes with the use case's answer;
// - retry later: the job goes back to the delayed set for the delay, no attempt spent; a job run
//   without its lock token (outside a worker) cannot be moved, so it fails with the cause as it
//   would have without this layer, or answers `otherwise` when the use case gave one;
// - give up: PermanentJobError (an UnrecoverableError): recorded, never retried.
// Errors the use case did not decide about are thrown on: the queue retries them with backoff.

export async function settle<T>(job: Job, token: string | undefined, outcome: Outcome<T>): Promise<T> {
  switch (outcome.kind) {
    case "done":
      return outcome.value;
    case "give-up":
      throw new PermanentJobError(outcome.reason);
    case "retry-later": {
      const canAnswer = "otherwise" in outcome;
      if (!token) {
        if (canAnswer) return outcome.otherwise as T;
        throw outcome.cause ?? new Error(outcome.reason);
      }
      try {
        await job.moveToDelayed(Date.now() + outcome.delayMs, token);
      } catch (error) {
        // A job whose lock lapsed cannot be moved: the use case's answer for that case, if any.
        if (canAnswer) return outcome.otherwise as T;
        throw error;
      }
      throw new DelayedError(outcome.reason);
    }
  }
}

/** Runs a use case for a job and maps how it ended (see settle). */
export async function runForJob<T>(job: Job, token: string | undefined, useCase: () => Promise<T>): Promise<T> {
  return settle(job, token, await outcomeOf(useCase));
}

/**
 * A webhook topic's handler from its use case. A give-up reaches the webhook processor as
 * PermanentJobError, which records the delivery failed with the reason.
 */
export function topicAdapter(useCase: (ctx: WorkerContext, delivery: WebhookJob) => Promise<unknown>): TopicHandler {
  return async (delivery, ctx, job, token) => {
    await runForJob(job, token, () => useCase(ctx, delivery));
  };
}
