import type { AdminReview } from "../reviews";

// One review of the service → the fields of Shopify's standard `product_review` metaobject, or the
// reason it is left out. Pure: what the app knows beyond the review (the Shopify order and customer
// it belongs to, the shop's language, when the back-sync saw it published) comes in `ReviewContext`.
//
// The field keys are those of Shopify's standard definition (list of standard metaobject
// definitions): rating and submitted_at and source are required; author is a customer reference,
// order an order reference, product a product reference, product_variant a variant reference.
// Shopify shows a review in the Shop app only when it is tied to a customer, an order and a product,
// so a review missing any of them is not written at all (the status says how many and why).
//
// What the service's Admin API documents for a review, and where each field comes from:
// - rating (1–5, documented) → `rating`, on Shopify's 1–5 scale;
// - text → `body`; the service has no review title, so `title` stays empty;
// - created (documented) → `submitted_at`;
// - the time the back-sync saw the review published (the service documents no publication time;
//   its `moderatedAt`, when sent, is taken first) → `published_at`;
// - name → `author_display_name` (what the storefront shows; never logged);
// - pictures[].url → `media_urls` (http and https only);
// - orderId with includeOrderData (documented) → the Shopify order, through the app's orders mirror,
//   which also gives the customer (`author`): the service documents no customer id;
// - variantSku with includeOrderData → `product_variant` when the catalog keys variants by id;
// - reply (the service does not document it on the admin review: read when present) →
//   `merchant_reply`, `merchant_replied_at`.
// `edited_at` is left empty: the admin review documents no edit time.

export const PRODUCT_REVIEW_TYPE = "product_review";
/** What `source` says of every review this app writes: the app it came through. */
export const REVIEW_SOURCE = "Reviews connector";

export type LeaveOutReason = "not_published" | "no_product" | "no_order" | "no_customer" | "no_submitted_at";
export const LEAVE_OUT_REASONS: readonly LeaveOutReason[] = [
  "not_published",
  "no_product",
  "no_order",
  "no_customer",
  "no_submitted_at",
];

export interface OrderLink {
  /** Shopify legacy order id. */
  orderId: string;
  /** Shopify legacy customer id; null for a guest order. */
  customerId: string | null;
}

export interface ReviewContext {
  /** The Shopify order the review's `orderId` names, when the orders mirror knows it. */
  order: OrderLink | null;
  /** The shop's language (ISO code, e.g. "en"), when known. */
  language: string | null;
  /** When the back-sync saw the review published (ISO). */
  seenAt: string;
  /** How the catalog keys variants: only ids can be turned into a variant reference. */
  variantKey: "id" | "sku";
}

export interface MetaobjectField {
  key: string;
  value: string;
}

export type MappedReview =
  | { kind: "syndicate"; handle: string; fields: MetaobjectField[] }
  | { kind: "leave-out"; handle: string; reason: LeaveOutReason };

/**
 * Every field of the standard definition. A field the review does not give is sent empty, which
 * clears it: an upsert then leaves no value of an earlier version (a reply taken back, a photo hidden).
 */
export const PRODUCT_REVIEW_KEYS = [
  "rating",
  "title",
  "body",
  "submitted_at",
  "edited_at",
  "published_at",
  "source",
  "author",
  "author_display_name",
  "order",
  "product",
  "product_variant",
  "merchant_reply",
  "merchant_replied_at",
  "media_urls",
  "language",
] as const;

const DIGITS = /^[1-9][0-9]*$/;

/** One handle per review id, stable across runs: the idempotency key of the upsert. */
export function reviewHandle(reviewId: string): string {
  const slug = reviewId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `review-${slug || "x"}`;
}

const isoOf = (v: unknown): string | null =>
  typeof v === "string" && v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : null;

const textOf = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

function mediaUrls(review: AdminReview): string[] {
  const urls: string[] = [];
  for (const p of review.pictures ?? []) {
    try {
      const u = new URL(p.url);
      if (u.protocol === "https:" || u.protocol === "http:") urls.push(u.toString());
    } catch {
      // A picture whose address is not a URL is not shown anywhere: nothing to syndicate.
    }
  }
  return urls;
}

function replyOf(review: AdminReview): { text: string; at: string | null } | null {
  const reply = (review as { reply?: unknown }).reply as { text?: unknown; created?: unknown } | null | undefined;
  const text = textOf(reply?.text);
  return text ? { text, at: isoOf(reply?.created) } : null;
}

export function mapReview(review: AdminReview, ctx: ReviewContext): MappedReview {
  const handle = reviewHandle(review._id);
  const leave = (reason: LeaveOutReason): MappedReview => ({ kind: "leave-out", handle, reason });
  if (review.status !== "published") return leave("not_published");
  // The catalog's `sku` is the Shopify product id (app/.server/mapping/keys.ts).
  if (!DIGITS.test(review.sku)) return leave("no_product");
  if (!ctx.order) return leave("no_order");
  if (!ctx.order.customerId) return leave("no_customer");
  const submittedAt = isoOf(review.created);
  if (!submittedAt) return leave("no_submitted_at");

  const rating = Math.min(5, Math.max(1, Math.round(review.rating)));
  const moderatedAt = isoOf((review as { moderatedAt?: unknown }).moderatedAt);
  const variantSku = textOf((review as { variantSku?: unknown }).variantSku);
  const reply = replyOf(review);
  const media = mediaUrls(review);
  const body = textOf(review.text);
  // A single-line field: a name typed with a line break would be refused whole.
  const name = textOf(review.name?.replace(/\s+/g, " "));

  const fields: MetaobjectField[] = [
    { key: "rating", value: JSON.stringify({ value: String(rating), scale_min: "1", scale_max: "5" }) },
    ...(body ? [{ key: "body", value: body }] : []),
    { key: "submitted_at", value: submittedAt },
    { key: "published_at", value: moderatedAt ?? isoOf(ctx.seenAt) ?? submittedAt },
    { key: "source", value: REVIEW_SOURCE },
    { key: "author", value: `gid://shopify/Customer/${ctx.order.customerId}` },
    ...(name ? [{ key: "author_display_name", value: name }] : []),
    { key: "order", value: `gid://shopify/Order/${ctx.order.orderId}` },
    { key: "product", value: `gid://shopify/Product/${review.sku}` },
    ...(ctx.variantKey === "id" && variantSku && DIGITS.test(variantSku)
      ? [{ key: "product_variant", value: `gid://shopify/ProductVariant/${variantSku}` }]
      : []),
    ...(reply ? [{ key: "merchant_reply", value: reply.text }] : []),
    ...(reply?.at ? [{ key: "merchant_replied_at", value: reply.at }] : []),
    ...(media.length ? [{ key: "media_urls", value: JSON.stringify(media) }] : []),
    ...(ctx.language ? [{ key: "language", value: ctx.language }] : []),
  ];
  const given = new Map(fields.map((f) => [f.key, f.value]));
  return {
    kind: "syndicate",
    handle,
    fields: PRODUCT_REVIEW_KEYS.map((key) => ({ key, value: given.get(key) ?? "" })),
  };
}
