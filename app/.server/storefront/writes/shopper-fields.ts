// The fields every shopper form (a review, a question) shares, checked the same way everywhere:
// how a guest says who they are (an order number with its e-mail, or an e-mail alone), the
// honeypot, and the rule that text is shown back as text. Error values are codes the forms
// translate, never sentences.

export const EMAIL_MAX = 254;
/** A guest's name, as a question shows it. */
export const NAME_MAX = 60;

export type FieldError =
  "required" | "rating" | "too_long" | "markup" | "email" | "order_number" | "invalid" | "link_invalid";

export interface ShopperFields {
  /** Guest proving a purchase: the order number they see and the order's e-mail. */
  order?: { number: string; email: string };
  /** Guest without an order (only when the merchant allows it). */
  guestEmail?: string;
  /** The name a guest without an order gives (questions ask for it). */
  guestName?: string;
  /** The honeypot field was filled: a bot. */
  trap: boolean;
  /** A review link (`?rv-order=&rv-token=`, as sent by e-mail): the order and its verification token. */
  link?: { orderId: string; verificationTokenId: string };
}

// Tags, comments and entities that only markup needs: the text is shown back as text, so a shopper
// never needs them, and text that carries them is refused rather than silently changed.
const MARKUP = /<\s*\/?\s*[a-z!?][^>]*>|&(#\d+|#x[0-9a-f]+|[a-z]+);/i;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[a-z]{2,}$/i;

export const plainText = (v: unknown) => (typeof v === "string" ? v.replace(/\r\n?/g, "\n").trim() : "");

/** The error of a free text field, if any: too long, or carrying markup. */
export function textError(value: string, max: number): FieldError | null {
  if (value.length > max) return "too_long";
  if (MARKUP.test(value)) return "markup";
  return null;
}

const LINK_ORDER = /^[A-Za-z0-9#_.:-]{1,64}$/;
const LINK_TOKEN = /^[A-Za-z0-9_-]{8,128}$/;

/** A review link's order and token, when the form came from one; errors are added to `errors`. */
export function parseLinkFields(b: Record<string, unknown>, errors: Record<string, FieldError>): ShopperFields["link"] {
  const orderId = plainText(b.linkOrder);
  const verificationTokenId = plainText(b.linkToken);
  if (!orderId && !verificationTokenId) return undefined;
  if (!LINK_ORDER.test(orderId) || !LINK_TOKEN.test(verificationTokenId)) {
    errors.link = "link_invalid";
    return undefined;
  }
  return { orderId, verificationTokenId };
}

/** Who a guest says they are, and the honeypot; errors are added to `errors`. */
export function parseShopperFields(b: Record<string, unknown>, errors: Record<string, FieldError>): ShopperFields {
  const fields: ShopperFields = { trap: plainText(b.website) !== "" };
  const orderNumber = plainText(b.orderNumber);
  const email = plainText(b.email);
  if (orderNumber) {
    if (!/^#?\s*\d{1,12}$/.test(orderNumber)) errors.orderNumber = "order_number";
    if (!email) errors.email = "required";
    else if (email.length > EMAIL_MAX || !EMAIL.test(email)) errors.email = "email";
    fields.order = { number: orderNumber, email };
  } else if (email) {
    if (email.length > EMAIL_MAX || !EMAIL.test(email)) errors.email = "email";
    fields.guestEmail = email;
    const name = plainText(b.name).replace(/\s+/g, " ");
    if (name) {
      const problem = textError(name, NAME_MAX);
      if (problem) errors.name = problem;
      fields.guestName = name;
    }
  }
  return fields;
}
