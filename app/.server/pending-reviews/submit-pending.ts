import { z } from "zod";
import { type JobServices, GiveUp, honouringServiceLimit, RetryLater } from "../jobs";
import { keyFrom } from "../crypto";
import { ReviewsError, type QuestionBody, type ReviewsClient } from "../reviews";
import { openPendingPayload, type OpenedPayload } from "./pending-reviews";
import { findStoredQuestion, findStoredReview, type LookupAdmin } from "./kept-write-lookup";

// A shopper's review or question the service could not take at the time (see
// app/.server/storefront/writes): sent again with the queue's backoff until the service accepts it,
// then forgotten. Exactly once: after a try whose answer never came (timeout, lost connection, 5xx)
// the service may already hold it, so the next try first looks for it among the product's reviews
// (or questions) since the kept write, page by page (kept-write-lookup.ts), and sends only when it
// is not there. A refusal (4xx) ends it: logged, the row deleted.

export const submitPendingJobSchema = z.object({ pendingId: z.string().min(1) });

export type SubmitPendingDeps = Pick<JobServices, "db" | "config" | "log" | "reviewsFor">;

export async function submitPendingReview(
  ctx: SubmitPendingDeps,
  pendingId: string,
  // False outside a worker: the job cannot be put back, so it looks at once.
  canWait: boolean,
) {
  const row = await ctx.db.pendingReview.findUnique({ where: { id: pendingId } });
  if (!row) return { skipped: "already sent" };
  // After a try whose answer never came, the service may still be working on it: look only once
  // a call that slow would have finished (twice the client's timeout since that try), without
  // spending an attempt. Looking earlier could miss it and send it twice.
  const settleAt = row.updatedAt.getTime() + 2 * ctx.config.REVIEWS_TIMEOUT_MS;
  if (row.outcomeUnknown && canWait && Date.now() < settleAt) {
    throw new RetryLater("waiting for an unanswered try to settle before looking for it", settleAt - Date.now());
  }
  const payload = openPendingPayload(row.sealedPayload, keyFrom(ctx.config.ENCRYPTION_KEY));
  const client = await ctx.reviewsFor(row.shop);
  return honouringServiceLimit(async () => {
    if (row.outcomeUnknown) {
      const found = await alreadyStored(client.admin, row, payload, ctx.log);
      if (found) {
        await ctx.db.pendingReview.delete({ where: { id: row.id } });
        return { found };
      }
    }
    try {
      const sent =
        payload.kind === "review"
          ? (await client.storefront.submitReview(row.sku, payload.submission))._id
          : await sendQuestion(client, row.sku, payload.question);
      await ctx.db.pendingReview.delete({ where: { id: row.id } });
      return { sent };
    } catch (error) {
      if (error instanceof ReviewsError && (error.kind === "permanent" || error.kind === "response")) {
        await ctx.db.pendingReview.delete({ where: { id: row.id } });
        ctx.log.warn(
          { shop: row.shop, sku: row.sku, err: error.toJSON() },
          "kept review refused by the service; dropped",
        );
        throw new GiveUp(`the service refused the kept review: ${error.kind}`);
      }
      // Whatever happened, the service may hold it now if no answer came: look first next time.
      await ctx.db.pendingReview.update({
        where: { id: row.id },
        data: {
          attempts: { increment: 1 },
          outcomeUnknown: true,
          lastError: error instanceof ReviewsError ? error.kind : "error",
        },
      });
      throw error;
    }
  });
}

async function sendQuestion(client: ReviewsClient, sku: string, question: QuestionBody): Promise<string> {
  await client.storefront.askQuestion(sku, question);
  return "question";
}

async function alreadyStored(
  admin: LookupAdmin,
  row: { shop: string; sku: string; createdAt: Date },
  payload: OpenedPayload,
  log: JobServices["log"],
): Promise<string | null> {
  const found =
    payload.kind === "review"
      ? await findStoredReview(admin, row.sku, payload.submission, row.createdAt)
      : await findStoredQuestion(admin, row.sku, payload.question, row.createdAt);
  // Not proven absent: sending risks a duplicate, not sending would lose what the shopper wrote.
  if (found.exhausted)
    log.warn(
      { shop: row.shop, sku: row.sku, pages: found.pages },
      "kept write not found within the look-up bound; sending it again",
    );
  return found.id;
}
