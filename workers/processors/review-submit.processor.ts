import { DelayedError, type Job } from "bullmq";
import { z } from "zod";
import type { WorkerContext } from "../context";
import { PermanentJobError } from "./errors";
import { honouringRetryAfter } from "./service-errors";
import { keyFrom } from "../../app/.server/crypto/secret-box";
import { ReviewsError, type QuestionBody, type ReviewsClient, type ReviewSubmission } from "../../app/.server/reviews";
import { openPendingPayload, type OpenedPayload } from "../../app/.server/storefront/writes/pending-reviews";

// A shopper's review or question the service could not take at the time (see
// app/.server/storefront/writes): sent again with the queue's backoff until the service accepts it,
// then forgotten. Exactly once: after a try whose answer never came (timeout, lost connection, 5xx)
// the service may already hold it, so the next try first looks for it among the account's newest
// reviews (or questions) of that product (Admin API) and sends only when it is not there. A refusal
// (4xx) ends it: logged, the row deleted.

const jobData = z.object({ pendingId: z.string().min(1) });

/** Looks back this far among a product's newest reviews for one already stored. */
const LOOK_BACK = 50;

export async function submitPendingReview(job: Job, ctx: WorkerContext, token?: string) {
  const { pendingId } = jobData.parse(job.data);
  const row = await ctx.db.pendingReview.findUnique({ where: { id: pendingId } });
  if (!row) return { skipped: "already sent" };
  // After a try whose answer never came, the service may still be working on it: look only once
  // a call that slow would have finished (twice the client's timeout since that try), without
  // spending an attempt. Looking earlier could miss it and send it twice.
  const settleAt = row.updatedAt.getTime() + 2 * ctx.config.REVIEWS_TIMEOUT_MS;
  if (row.outcomeUnknown && token && Date.now() < settleAt) {
    await job.moveToDelayed(settleAt, token);
    throw new DelayedError("waiting for an unanswered try to settle before looking for it");
  }
  const payload = openPendingPayload(row.sealedPayload, keyFrom(ctx.config.ENCRYPTION_KEY));
  const client = await ctx.reviewsFor(row.shop);
  return honouringRetryAfter(job, token, async () => {
    if (row.outcomeUnknown) {
      const found = await alreadyStored(client.admin, row.sku, payload, row.createdAt);
      if (found) {
        await ctx.db.pendingReview.delete({ where: { id: row.id } });
        return { found };
      }
    }
    try {
      const sent = payload.kind === "review" ? (await client.storefront.submitReview(row.sku, payload.submission))._id : await sendQuestion(client, row.sku, payload.question);
      await ctx.db.pendingReview.delete({ where: { id: row.id } });
      return { sent };
    } catch (error) {
      if (error instanceof ReviewsError && (error.kind === "permanent" || error.kind === "response")) {
        await ctx.db.pendingReview.delete({ where: { id: row.id } });
        ctx.log.warn({ shop: row.shop, sku: row.sku, err: error.toJSON() }, "kept review refused by the service; dropped");
        throw new PermanentJobError(`the service refused the kept review: ${error.kind}`);
      }
      // Whatever happened, the service may hold it now if no answer came: look first next time.
      await ctx.db.pendingReview.update({ where: { id: row.id }, data: { attempts: { increment: 1 }, outcomeUnknown: true, lastError: error instanceof ReviewsError ? error.kind : "error" } });
      throw error;
    }
  });
}

async function sendQuestion(client: ReviewsClient, sku: string, question: QuestionBody): Promise<string> {
  await client.storefront.askQuestion(sku, question);
  return "question";
}

function alreadyStored(admin: Pick<ReviewsClient["admin"], "listReviews" | "listQuestions">, sku: string, payload: OpenedPayload, since: Date): Promise<string | null> {
  return payload.kind === "review" ? reviewStored(admin, sku, payload.submission, since) : questionStored(admin, sku, payload.question, since);
}

async function questionStored(admin: Pick<ReviewsClient["admin"], "listQuestions">, sku: string, q: QuestionBody, since: Date): Promise<string | null> {
  // Every status: a question the service took may already sit in moderation (or be filtered).
  const { results } = await admin.listQuestions({ sku, status: "all", order: "created,-1" });
  const same = (results as Array<Record<string, unknown>>).slice(0, LOOK_BACK).find(
    (r) =>
      r.text === q.text &&
      (typeof r.email !== "string" || r.email.toLowerCase() === q.email.toLowerCase()) &&
      typeof r.created === "string" &&
      Date.parse(r.created) >= since.getTime() - 60_000,
  );
  return same ? String(same._id) : null;
}

async function reviewStored(admin: Pick<ReviewsClient["admin"], "listReviews">, sku: string, s: ReviewSubmission, since: Date): Promise<string | null> {
  const day = new Date(since.getTime() - 86_400_000).toISOString().slice(0, 10);
  const { results } = await admin.listReviews({ sku, order: "created,-1", from: day, includeOrderData: true });
  const same = (results as Array<Record<string, unknown>>).slice(0, LOOK_BACK).find(
    (r) =>
      r.rating === s.rating &&
      (r.text ?? "") === (s.text ?? "") &&
      (s.userId ? r.userId === s.userId : true) &&
      (s.orderId ? r.orderId === undefined || r.orderId === s.orderId : true) &&
      typeof r.created === "string" &&
      Date.parse(r.created) >= since.getTime() - 60_000,
  );
  return same ? String(same._id) : null;
}
