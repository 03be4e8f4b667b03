import type { AdminReview } from "../reviews";
import { feedEntry, type ExclusionReason, type FeedEntry, type FeedShop, type MirroredProduct } from "./feed-entry";
import { FEED_SCHEMA_URL, FEED_SCHEMA_VERSION } from "./feed-schema";
import { element, escapeXml } from "./xml-text";

// Google's product review feed, schema 2.4 (feed-schema.ts), written as it is read: one page of
// reviews from the service at a time, its products looked up once a feed (feed-source.ts), its
// entries written in chunks of about 32 KB. What stays in memory is a page, the products seen and
// the ids already written (to drop a review a page repeats when the list moves under the read),
// not the feed: a shop with 100,000 reviews streams in a few MB.

/**
 * Google recommends a feed file of at most 500 MB uncompressed ("Feed File Guidelines"). Entries
 * stop short of it, with room for the closing tags; what is left out is counted.
 */
export const FEED_MAX_BYTES = 450 * 1024 * 1024;

/**
 * A chunk is cut once it holds this much: the response's backpressure acts on small pieces, and a
 * page of long reviews is never one large string (V8 puts strings over 128 KB in its large-object
 * space, collected apart from the young generation).
 */
export const FEED_CHUNK_BYTES = 32 * 1024;

export interface FeedSource {
  /** Published reviews, page after page, oldest first (a new review lands after the read). */
  pages(): AsyncIterable<readonly AdminReview[]>;
  /** The accepted catalog products of these catalog keys, by key; a key without one is absent. */
  products(keys: readonly string[]): Promise<ReadonlyMap<string, MirroredProduct>>;
}

export interface FeedOptions {
  shop: FeedShop;
  /** `<publisher><name>`: who publishes the reviews (the store). */
  publisherName: string;
  maxBytes?: number;
}

/** What a run of the writer did: filled in as it streams, complete when the stream ends. */
export interface FeedReport {
  included: number;
  duplicates: number;
  /** Per reason, the reviews left out for it (a review with two reasons counts under both). */
  excluded: Partial<Record<ExclusionReason, number>>;
  /**
   * The products whose reviews were left out for a reason of the product (what the merchant fixes
   * in Shopify), by catalog key, at most PRODUCTS_REPORTED of them: what a page can list.
   */
  products: Record<string, ExclusionReason[]>;
  /** Left out so that the file stays under `maxBytes`. */
  overSize: number;
  bytes: number;
}

/** Reasons that belong to the product rather than to one review. */
export const PRODUCT_REASONS: ReadonlySet<ExclusionReason> = new Set([
  "product_not_in_catalog",
  "product_inactive",
  "no_product_identifier",
  "no_product_url",
]);
export const PRODUCTS_REPORTED = 1000;

export const emptyReport = (): FeedReport => ({
  included: 0,
  duplicates: 0,
  excluded: {},
  products: {},
  overSize: 0,
  bytes: 0,
});

function noteProduct(report: FeedReport, key: string, reasons: readonly ExclusionReason[]) {
  const own = reasons.filter((r) => PRODUCT_REASONS.has(r));
  if (!own.length || key in report.products) return;
  if (Object.keys(report.products).length < PRODUCTS_REPORTED) report.products[key] = own;
}

const list = (outer: string, inner: string, values: readonly string[]) =>
  values.length ? `<${outer}>${values.map((v) => element(inner, v)).join("")}</${outer}>` : "";

const optional = (name: string, value: string | boolean | null) => (value === null ? "" : element(name, String(value)));

/** One `<review>` in the order the 2.4 schema lists its children (feed-schema.ts CHILDREN.review). */
export function reviewXml(e: FeedEntry): string {
  const p = e.product;
  const ids =
    list("gtins", "gtin", p.gtins) +
    list("mpns", "mpn", p.mpns) +
    list("skus", "sku", p.skus) +
    list("brands", "brand", p.brands);
  return (
    "<review>" +
    element("review_id", e.reviewId) +
    `<reviewer>${element("name", e.reviewer.name, e.reviewer.anonymous ? { is_anonymous: "true" } : {})}</reviewer>` +
    optional("is_verified_purchase", e.verifiedPurchase) +
    optional("is_incentivized_review", e.incentivized) +
    element("review_timestamp", e.timestamp) +
    element("content", e.content) +
    element("review_url", e.reviewUrl, { type: "group" }) +
    `<ratings>${element("overall", String(e.rating), { min: "1", max: "5" })}</ratings>` +
    "<products><product>" +
    (ids ? `<product_ids>${ids}</product_ids>` : "") +
    (p.name ? element("product_name", p.name) : "") +
    element("product_url", p.url) +
    "</product></products>" +
    element("is_spam", "false") +
    optional("collection_method", e.collectionMethod) +
    optional("transaction_id", e.transactionId) +
    "</review>\n"
  );
}

export function feedHead(publisherName: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<feed xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning"' +
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
    ` xsi:noNamespaceSchemaLocation="${escapeXml(FEED_SCHEMA_URL)}">\n` +
    element("version", FEED_SCHEMA_VERSION) +
    `\n<publisher>${element("name", publisherName)}</publisher>\n`
  );
}

const TAIL = "</feed>\n";

/** The feed as string chunks; `report` is filled in while it streams. */
export async function* writeFeed(
  source: FeedSource,
  opts: FeedOptions,
  report: FeedReport = emptyReport(),
): AsyncGenerator<string> {
  const max = opts.maxBytes ?? FEED_MAX_BYTES;
  const seen = new Set<string>();
  const emit = (chunk: string) => {
    report.bytes += Buffer.byteLength(chunk, "utf8");
    return chunk;
  };
  yield emit(feedHead(opts.publisherName));
  // `<reviews>` must hold at least one review: it is opened with the first one.
  let open = false;
  const closing = Buffer.byteLength(`</reviews>\n${TAIL}`, "utf8");
  for await (const page of source.pages()) {
    const fresh: AdminReview[] = [];
    for (const r of page) {
      if (seen.has(r._id)) {
        report.duplicates++;
        continue;
      }
      seen.add(r._id);
      fresh.push(r);
    }
    if (!fresh.length) continue;
    const products = await source.products([...new Set(fresh.map((r) => r.sku))]);
    let chunk = "";
    let size = 0;
    for (const r of fresh) {
      const result = feedEntry(r, products.get(r.sku) ?? null, opts.shop);
      if (!result.ok) {
        for (const reason of result.reasons) report.excluded[reason] = (report.excluded[reason] ?? 0) + 1;
        noteProduct(report, r.sku, result.reasons);
        continue;
      }
      const xml = (open ? "" : "<reviews>\n") + reviewXml(result.entry);
      const bytes = Buffer.byteLength(xml, "utf8");
      if (report.bytes + size + bytes + closing > max) {
        report.overSize++;
        continue;
      }
      open = true;
      chunk += xml;
      size += bytes;
      report.included++;
      if (size >= FEED_CHUNK_BYTES) {
        yield emit(chunk);
        chunk = "";
        size = 0;
      }
    }
    if (chunk) yield emit(chunk);
  }
  yield emit((open ? "</reviews>\n" : "") + TAIL);
}
