import { z } from "zod";
import type { AdminReview } from "../reviews";
import { checkUrl, type UrlPolicy } from "../security";
import { shownReviewerName } from "../theme";

// One review of the service, the product the catalog mirror says the service holds for it, and the
// shop: what Google's product review feed (schema 2.4) carries for that review, or why it is left
// out. Pure. The reasons are data (codes, every one that applies) so that a page of the admin can
// later list the products left out and what to fix; nothing here is worded for a person.

/** Why a review is not in the feed. */
export type ExclusionReason =
  /** Only published reviews are shown on the store; the rest are not the merchant's to publish. */
  | "not_published"
  /** Google refuses a review without content. */
  | "empty_content"
  /** The mirror holds no accepted product for the review's SKU (never synced, or refused). */
  | "product_not_in_catalog"
  /** The product went inactive (deleted, archived or draft in Shopify): Google cannot match a live offer. */
  | "product_inactive"
  /** Neither a GTIN, nor an MPN with a brand, nor a SKU with a brand: Google cannot match the product. */
  | "no_product_identifier"
  /** No product URL on the shop's domain that passes the URL rule: `product_url` is required. */
  | "no_product_url"
  | "invalid_rating"
  | "invalid_timestamp"
  /** A blank id: Google refuses the whole file over one (review_id is a non-empty string). */
  | "no_review_id";

/** What the feed reads of a product in the catalog mirror (the payload the service accepted). */
export const mirroredProductSchema = z.looseObject({
  sku: z.string(),
  name: z.string().optional(),
  url: z.string().optional(),
  reference: z.string().optional(),
  brand: z.string().optional(),
  gtin: z.string().optional(),
  mpn: z.string().optional(),
  internalSku: z.string().optional(),
  status: z.string().optional(),
});
export type MirroredProduct = z.infer<typeof mirroredProductSchema>;

export interface FeedShop {
  /** `https://shop.example.com`: the storefront's primary domain (Shop.primaryDomain). */
  primaryDomain: string;
  /** What the storefront shows for a review without a name, in the feed's language. */
  anonymousName: string;
  urlPolicy: UrlPolicy;
  /**
   * The merchant's "I offer incentives for reviews" (settings `googleFeed.incentivizedReviews`).
   * The service does not say which review got one, so every review is marked when it is on.
   */
  incentivizedReviews: boolean;
}

/** How a review was asked for, in Google's words (collection_method). */
export type CollectionMethod = "post_fulfillment" | "unsolicited";

export interface FeedEntry {
  reviewId: string;
  reviewer: { name: string; anonymous: boolean };
  /** xs:dateTime in UTC, whole seconds. */
  timestamp: string;
  content: string;
  /** The product page, where the review is shown among others: `type="group"`. */
  reviewUrl: string;
  rating: number;
  product: {
    gtins: string[];
    mpns: string[];
    skus: string[];
    brands: string[];
    name: string | null;
    url: string;
  };
  /** The service's verified mark (a review sent with an order's verification token); null: not given. */
  verifiedPurchase: boolean | null;
  /** True when the merchant offers incentives; null: nothing is said (the element is left out). */
  incentivized: true | null;
  /** From the review's collection channel; null when the channel does not tell. */
  collectionMethod: CollectionMethod | null;
  /** The order behind the review, as the service holds it (`orderId`); null when there is none. */
  transactionId: string | null;
}

export type EntryResult = { ok: true; entry: FeedEntry } | { ok: false; reasons: ExclusionReason[] };

const nonEmpty = (v: string | null | undefined): string | null => {
  const t = typeof v === "string" ? v.trim() : "";
  return t ? t : null;
};

/**
 * The product's page on the shop's domain today. The handle (`reference`) is preferred to the URL
 * stored at sync time: the merchant may have changed the primary domain since, and Google matches
 * reviews to offers on the domain it crawls.
 */
export function productUrlOf(product: MirroredProduct, shop: FeedShop): string | null {
  // The primary domain is an origin: one with a path, query or fragment is not what Shopify gives.
  const home = checkUrl(shop.primaryDomain.trim().replace(/\/+$/, "") + "/", shop.urlPolicy);
  if (home === null) return null;
  const origin = new URL(home);
  if (origin.pathname !== "/" || origin.search || origin.hash) return null;
  const handle = nonEmpty(product.reference);
  const raw = handle ? `${origin.origin}/products/${encodeURIComponent(handle)}` : nonEmpty(product.url);
  const url = checkUrl(raw, shop.urlPolicy);
  return url !== null && new URL(url).host === origin.host ? url : null;
}

/**
 * The service's collection channels (`source`: Client API "Submit a review", standard values
 * email, sms, whatsapp, sdk, web; custom values allowed). E-mail, SMS and WhatsApp are the review
 * requests the service sends the buyer after the order (Admin API "Events"): Google's
 * post_fulfillment. The storefront's own forms (`web`, and `store`, the rating page opened from
 * the customer's orders) and an SDK are reviews nobody was asked for at that moment: unsolicited.
 * Any other channel (syndication from another store, a custom value) says nothing Google's two
 * values can carry truthfully, so the element is left out.
 */
const REQUESTED = new Set(["email", "sms", "whatsapp"]);
const UNSOLICITED = new Set(["web", "store", "sdk"]);

export function collectionMethodOf(source: string | null | undefined): CollectionMethod | null {
  const s = typeof source === "string" ? source.trim().toLowerCase() : "";
  if (REQUESTED.has(s)) return "post_fulfillment";
  if (UNSOLICITED.has(s)) return "unsolicited";
  return null;
}

/** xs:dateTime of the review's `created`, or null when it is not a date. */
export function feedTimestamp(created: string | null | undefined): string | null {
  if (typeof created !== "string" || !created) return null;
  const ms = Date.parse(created);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Google's matching rules: a GTIN alone, or an MPN or a SKU each only with a brand. */
function identifiersOf(product: MirroredProduct) {
  const brand = nonEmpty(product.brand);
  const gtin = nonEmpty(product.gtin);
  const mpn = brand ? nonEmpty(product.mpn) : null;
  const sku = brand ? nonEmpty(product.internalSku) : null;
  return {
    gtins: gtin ? [gtin] : [],
    mpns: mpn ? [mpn] : [],
    skus: sku ? [sku] : [],
    brands: brand && (gtin || mpn || sku) ? [brand] : [],
  };
}

export function feedEntry(review: AdminReview, product: MirroredProduct | null, shop: FeedShop): EntryResult {
  const reasons: ExclusionReason[] = [];
  if (!nonEmpty(review._id)) reasons.push("no_review_id");
  if (review.status !== "published") reasons.push("not_published");
  const content = nonEmpty(review.text);
  if (content === null) reasons.push("empty_content");
  const rating = review.rating;
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) reasons.push("invalid_rating");
  const timestamp = feedTimestamp(review.created);
  if (timestamp === null) reasons.push("invalid_timestamp");

  let ids: ReturnType<typeof identifiersOf> | null = null;
  let url: string | null = null;
  if (product === null) reasons.push("product_not_in_catalog");
  else if (product.status === "inactive") reasons.push("product_inactive");
  else {
    ids = identifiersOf(product);
    if (ids.gtins.length + ids.mpns.length + ids.skus.length === 0) reasons.push("no_product_identifier");
    url = productUrlOf(product, shop);
    if (url === null) reasons.push("no_product_url");
  }
  if (reasons.length || ids === null || url === null || content === null || timestamp === null) {
    return { ok: false, reasons };
  }

  const name = shownReviewerName(review.name);
  return {
    ok: true,
    entry: {
      reviewId: review._id,
      reviewer: name ? { name, anonymous: false } : { name: shop.anonymousName, anonymous: true },
      timestamp,
      content,
      reviewUrl: url,
      rating,
      product: { ...ids, name: nonEmpty(product?.name), url },
      verifiedPurchase: typeof review.verified === "boolean" ? review.verified : null,
      incentivized: shop.incentivizedReviews ? true : null,
      collectionMethod: collectionMethodOf(review.source),
      transactionId: nonEmpty(review.orderId),
    },
  };
}
