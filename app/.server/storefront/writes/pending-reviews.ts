import type { Queue } from "bullmq";
import { open, seal } from "../../crypto";
import type { Db } from "../../db";
import { jobIdPart } from "../../queues";
import type { QuestionBody, ReviewSubmission } from "../../reviews";

// A review (or a question) the service could not take when the shopper sent it: kept (sealed)
// until a worker's retry is accepted. The job carries the row's id only; the row is the one copy
// of the submission. A question is kept as `{question}`; a review as the submission itself.

export const SUBMIT_PENDING_REVIEW = "review-submit";

export type PendingPayload = ReviewSubmission | { question: QuestionBody };

export type OpenedPayload =
  { kind: "review"; submission: ReviewSubmission } | { kind: "question"; question: QuestionBody };

export interface PendingReviewJob {
  pendingId: string;
}

export async function keepPendingReview(
  deps: { db: Db; maintenance: Queue; key: Buffer },
  value: { shop: string; sku: string; submission: PendingPayload; outcomeUnknown: boolean; error: string },
): Promise<string> {
  const row = await deps.db.pendingReview.create({
    data: {
      shop: value.shop,
      sku: value.sku,
      sealedPayload: seal(JSON.stringify(value.submission), deps.key),
      outcomeUnknown: value.outcomeUnknown,
      lastError: value.error,
      attempts: 1,
    },
  });
  const data: PendingReviewJob = { pendingId: row.id };
  // After a try whose answer never came the worker waits for it to settle before it looks
  // (submit-pending.ts).
  await deps.maintenance.add(SUBMIT_PENDING_REVIEW, data, {
    jobId: `review-submit-${jobIdPart(row.id)}`,
    delay: 1_000,
  });
  return row.id;
}

export function openPendingPayload(sealed: string, key: Buffer): OpenedPayload {
  const value = JSON.parse(open(sealed, key)) as PendingPayload;
  return "question" in value ? { kind: "question", question: value.question } : { kind: "review", submission: value };
}
