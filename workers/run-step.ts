import type { Job } from "bullmq";
import { type RunStep } from "../app/.server/sync";
import { runJob } from "../app/.server/jobs";

// A sync run's job as its step sees it (app/.server/sync/bulk-run.ts): the run it is for, whether
// this try is the last, whether it can be put back for later, and where its progress shows.
export function runStepOf(job: Job, token: string | undefined): RunStep {
  return {
    runId: runJob.parse(job.data).runId,
    jobId: job.id,
    finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
    canDefer: token !== undefined,
    reportProgress: (progress) => job.updateProgress(progress),
  };
}

/** A poll job's number: its id ends with it (`<kind>-poll-<run>-<n>`). */
export function pollNumberOf(job: Job): number {
  return Number(String(job.id).split("-").pop());
}
