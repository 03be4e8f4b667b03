import { open, seal } from "../crypto";
import type { Db } from "../db";
import type { Queues } from "../queues";
import { enqueuePendingReview } from "../jobs";
import type { QuestionBody, ReviewSubmission } from "../reviews";

// A review (or a question) the service could not take when the shopper sent it: kept (sealed)
// until a worker's retry is accepted. The job carries the row's id only; the row is the one copy
// of the submission. A question is kept as `{question}`; a review as the submission itself.

export type PendingPayload = ReviewSubmission | { question: QuestionBody };

export type OpenedPayload =
  { kind: "review"; submission: ReviewSubmission } | { kind: "question"; question: QuestionBody };

export async function keepPendingReview(
  deps: { db: Db; queues: Pick<Queues, "get">; key: Buffer },
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
  await enqueuePendingReview(deps.queues, row.id);
  return row.id;
}

export function openPendingPayload(sealed: string, key: Buffer): OpenedPayload {
  const value = JSON.parse(open(sealed, key)) as PendingPayload;
  return "question" in value ? { kind: "question", question: value.question } : { kind: "review", submission: value };
}
