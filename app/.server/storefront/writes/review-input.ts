// What a shopper's "write a review" form may send, checked before anything else is done with it.
// Field errors are codes the form translates (en, pt-BR, es), never English sentences. Identity
// fields are not part of it: who writes comes from the app proxy's signature or a verified order.

import {
  parseLinkFields,
  parseShopperFields,
  plainText,
  textError,
  type FieldError,
  type ShopperFields,
} from "./shopper-fields";

export type { FieldError } from "./shopper-fields";
export const REVIEW_TEXT_MAX = 5_000;

export interface ReviewInput extends ShopperFields {
  rating: number;
  text: string;
  recommended?: boolean;
}

export type ParsedReview = { ok: true; input: ReviewInput } | { ok: false; errors: Record<string, FieldError> };

export function parseReviewInput(body: unknown): ParsedReview {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const errors: Record<string, FieldError> = {};
  const rating = typeof b.rating === "number" ? b.rating : Number(b.rating);
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) errors.rating = "rating";
  const reviewText = plainText(b.text);
  const textProblem = textError(reviewText, REVIEW_TEXT_MAX);
  if (textProblem) errors.text = textProblem;
  let recommended: boolean | undefined;
  if (b.recommended === true || b.recommended === "yes") recommended = true;
  else if (b.recommended === false || b.recommended === "no") recommended = false;
  else if (b.recommended !== undefined && b.recommended !== null && b.recommended !== "")
    errors.recommended = "invalid";

  const link = parseLinkFields(b, errors);
  const input: ReviewInput = {
    rating,
    text: reviewText,
    recommended,
    ...parseShopperFields(b, errors),
    ...(link ? { link } : {}),
  };
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, input };
}
