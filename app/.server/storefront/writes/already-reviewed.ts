import { ReviewsPermanentError } from "../../reviews";
import { json, type ServiceClient } from "./write-request.server";

// A shopper who reviewed this product already gets one answer wherever they write (the product
// page's form, a guest's order, a review link): 409 `already_reviewed`, with what they wrote when
// the service's order review status has it, so the form can say so in the shopper's language and
// show it. The service's 409 on a second review is documented by status only (no body): the review
// shown comes from the documented `GET orders/{verificationTokenId}/{orderId}` (`review`: rating,
// text, created), never from the conflict's body. The link to it is the product page's reviews
// (docs/reviews-service.md, "A review written twice").

export interface TheirReview {
  rating: number;
  text?: string;
  created?: string;
}

/** True for the service's refusal of a second review of an order's product (409). */
export function isDuplicateReview(error: unknown): boolean {
  return error instanceof ReviewsPermanentError && error.reason === "conflict";
}

/** What the buyer wrote for this product of that order, or null when the service cannot say now. */
export async function theirReview(
  client: Pick<ServiceClient, "getOrderReviewStatus">,
  order: { orderId: string; verificationTokenId: string } | null,
  sku: string,
): Promise<TheirReview | null> {
  if (!order) return null;
  try {
    const status = await client.getOrderReviewStatus(order.verificationTokenId, order.orderId);
    const review = status.products.find((p) => p.sku === sku && !p.active)?.review;
    if (!review || typeof review.rating !== "number") return null;
    return {
      rating: review.rating,
      ...(review.text ? { text: review.text } : {}),
      ...(review.created ? { created: review.created } : {}),
    };
  } catch {
    return null; // the message stands without the quote
  }
}

export function alreadyReviewed(review: TheirReview | null): Response {
  return json(409, { error: "already_reviewed", ...(review ? { review } : {}) });
}
