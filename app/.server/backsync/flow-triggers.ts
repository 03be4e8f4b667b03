import type { Logger } from "pino";
import type { AdminReview } from "../reviews";
import { type AdminGraphql, type UserError, FLOW_TRIGGER_RECEIVE } from "../shopify";
import type { BackSyncState } from "./backsync-state.repository";

// Shopify Flow triggers fed by the review-change feed, declared by the extensions
// `extensions/review-published` and `extensions/negative-review-received` (their field keys are the
// payload keys below; `product_id` is the product reference). Sent once per review and trigger:
// the review is claimed in the database before the call (FlowTriggerSent), so a restart, a retried
// job or a second worker never sends it twice; a call that fails gives the claim back for the retry.
// A crash between claim and call loses that one trigger: at most once, because a workflow that
// e-mails a merchant or tags a product twice is worse than a rare missing run.
//
// "review published": a review that reached status published. "negative review received": a
// moderated review (published or rejected) rated at or below the shop's
// `flow.negativeRatingAtOrBelow` (default 2): the merchant hears of it even when it is not shown.

export const REVIEW_PUBLISHED = "review-published";
export const NEGATIVE_REVIEW = "negative-review-received";

export interface TriggerCall {
  handle: string;
  reviewId: string;
  payload: Record<string, unknown>;
}

// Flow refuses payloads of 50,000 bytes or more; a review's text is the only unbounded field.
const MAX_TEXT_CHARS = 10_000;
const bounded = (text: string) =>
  text.length <= MAX_TEXT_CHARS ? text : `${[...text].slice(0, MAX_TEXT_CHARS - 1).join("")}…`;

/** The payload fields declared in the extensions' TOML, in the same order. */
export function triggerPayload(review: AdminReview): Record<string, unknown> {
  const productId = Number(review.sku);
  return {
    // A product reference: Flow loads the product from it. The catalog SKU is the Shopify product id.
    ...(Number.isSafeInteger(productId) && productId > 0 ? { product_id: productId } : {}),
    "Review id": review._id,
    Rating: review.rating,
    "Review text": bounded(review.text ?? ""),
    "Reviewer name": bounded(review.name ?? ""),
    "Review status": review.status,
  };
}

/** Pure: which triggers the changes call for. */
export function triggersFor(changes: readonly AdminReview[], negativeAtOrBelow: number): TriggerCall[] {
  const calls: TriggerCall[] = [];
  // Oldest first: workflows see reviews in the order they were moderated.
  for (const r of [...changes].reverse()) {
    const payload = triggerPayload(r);
    if (r.status === "published") calls.push({ handle: REVIEW_PUBLISHED, reviewId: r._id, payload });
    if ((r.status === "published" || r.status === "removed") && r.rating <= negativeAtOrBelow)
      calls.push({ handle: NEGATIVE_REVIEW, reviewId: r._id, payload });
  }
  return calls;
}

export async function sendTriggers(
  deps: { shopId: string; gql: AdminGraphql; state: BackSyncState; log: Logger },
  calls: readonly TriggerCall[],
): Promise<{ sent: number; alreadySent: number; refused: number }> {
  let sent = 0;
  let alreadySent = 0;
  let refused = 0;
  for (const call of calls) {
    if (!(await deps.state.claimTrigger(deps.shopId, call.handle, call.reviewId))) {
      alreadySent++;
      continue;
    }
    let errors: UserError[];
    try {
      const data = await deps.gql.query<{ flowTriggerReceive: { userErrors: UserError[] } | null }>(
        FLOW_TRIGGER_RECEIVE,
        { handle: call.handle, payload: call.payload },
      );
      errors = data.flowTriggerReceive?.userErrors ?? [];
    } catch (error) {
      await deps.state.releaseTrigger(deps.shopId, call.handle, call.reviewId);
      throw error;
    }
    if (errors.length) {
      // Flow refused this payload (an extension not deployed, a field it does not declare): the
      // same call would be refused again, so the claim stays and the reason is logged.
      refused++;
      deps.log.error(
        { handle: call.handle, review: call.reviewId, errors: errors.map((e) => e.message) },
        "Flow refused a trigger",
      );
    } else sent++;
  }
  return { sent, alreadySent, refused };
}
