// What a shopper's "write a review" form may send, checked before anything else is done with it.
// Field errors are codes the form translates (en, pt-BR, es), never English sentences. Identity
// fields are not part of it: who writes comes from the app proxy's signature or a verified order.

export const REVIEW_TEXT_MAX = 5_000;
export const EMAIL_MAX = 254;

export type FieldError = "required" | "rating" | "too_long" | "markup" | "email" | "order_number" | "invalid";

export interface ReviewInput {
  rating: number;
  text: string;
  recommended?: boolean;
  /** Guest proving a purchase: the order number they see and the order's e-mail. */
  order?: { number: string; email: string };
  /** Guest without an order (only when the merchant allows it). */
  guestEmail?: string;
  /** The honeypot field was filled: a bot. */
  trap: boolean;
}

export type ParsedReview = { ok: true; input: ReviewInput } | { ok: false; errors: Record<string, FieldError> };

// Tags, comments and entities that only markup needs: the text is shown back as text, so a shopper
// never needs them, and a review that carries them is refused rather than silently changed.
const MARKUP = /<\s*\/?\s*[a-z!?][^>]*>|&(#\d+|#x[0-9a-f]+|[a-z]+);/i;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[a-z]{2,}$/i;

const text = (v: unknown) => (typeof v === "string" ? v.replace(/\r\n?/g, "\n").trim() : "");

export function parseReviewInput(body: unknown): ParsedReview {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const errors: Record<string, FieldError> = {};
  const rating = typeof b.rating === "number" ? b.rating : Number(b.rating);
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) errors.rating = "rating";
  const reviewText = text(b.text);
  if (reviewText.length > REVIEW_TEXT_MAX) errors.text = "too_long";
  else if (MARKUP.test(reviewText)) errors.text = "markup";
  let recommended: boolean | undefined;
  if (b.recommended === true || b.recommended === "yes") recommended = true;
  else if (b.recommended === false || b.recommended === "no") recommended = false;
  else if (b.recommended !== undefined && b.recommended !== null && b.recommended !== "") errors.recommended = "invalid";

  const input: ReviewInput = { rating, text: reviewText, recommended, trap: text(b.website) !== "" };
  const orderNumber = text(b.orderNumber);
  const email = text(b.email);
  if (orderNumber) {
    if (!/^#?\s*\d{1,12}$/.test(orderNumber)) errors.orderNumber = "order_number";
    if (!email) errors.email = "required";
    else if (email.length > EMAIL_MAX || !EMAIL.test(email)) errors.email = "email";
    input.order = { number: orderNumber, email };
  } else if (email) {
    if (email.length > EMAIL_MAX || !EMAIL.test(email)) errors.email = "email";
    input.guestEmail = email;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, input };
}
