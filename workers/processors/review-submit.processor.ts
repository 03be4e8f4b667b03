import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { runForJob } from "../outcome-adapter";
import { submitPendingJobSchema, submitPendingReview as sendKeptWrite } from "../../app/.server/pending-reviews";

// maintenance/"review-submit": a shopper's review or question the service could not take at the
// time, sent again (app/.server/pending-reviews/submit-pending.ts). Waiting for an unanswered try
// to settle, or the service's 429, puts the job back without spending an attempt; a refusal ends it.
export async function submitPendingReview(job: Job, ctx: WorkerContext, token?: string) {
  const { pendingId } = submitPendingJobSchema.parse(job.data);
  return runForJob(job, token, () => sendKeptWrite(ctx, pendingId, token !== undefined));
}
