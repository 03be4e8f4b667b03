import type { ProductMirror } from "../catalog";
import type { AdminReview, ReviewsAdminApi } from "../reviews";
import { mirroredProductSchema, type MirroredProduct } from "./feed-entry";
import type { FeedSource } from "./feed-writer";

// Where the feed reads from: the service's published reviews (Admin API "List reviews") and the
// catalog mirror (what the service accepted per product).
//
// Oldest first (`created,1`): a review published during the read lands after it rather than
// shifting the pages. The listing's page size is not documented: `skip` advances by what each page
// held, as everywhere else. A review moderated in or out during the read can shift the rest by one:
// a repeat is dropped by the writer, a skipped one is in the next fetch (Google fetches daily).
//
// `includeOrderData=true` adds each review's `orderId` (the feed's transaction_id). It also brings
// the order's name, e-mail and phone: read in passing, never written nor kept.

export const FEED_LIST_ORDER = "created,1";
/**
 * Products kept between pages (the fields the feed reads, ~0.3 KB each): a shop's popular ones.
 * Reading each page's products again (a query, every payload parsed whole) allocated so much that
 * V8's young collections ran several times a page and promoted the page in flight each time: a
 * 100,000-review feed of 2,000 products left ~200 MB of garbage for a full collection (RSS +150 MB
 * above its start; +40 MB with the products kept).
 */
export const PRODUCTS_KEPT = 20_000;
/** A bound on pages, far above any shop (the service's page size is at least 10 in practice). */
const MAX_PAGES = 100_000;

export interface SourceRange {
  /** Published reviews to pass over first (a part's start). */
  from?: number;
  /** At most this many listed reviews (a part's size). */
  limit?: number;
  signal?: AbortSignal;
}

export function serviceFeedSource(
  admin: Pick<ReviewsAdminApi, "listReviews">,
  mirror: Pick<ProductMirror, "accepted">,
  shopId: string,
  opts: SourceRange = {},
): FeedSource {
  const from = opts.from ?? 0;
  const end = from + (opts.limit ?? Infinity);
  /** Catalog key → its product, or null for none; oldest dropped first past PRODUCTS_KEPT. */
  const cache = new Map<string, MirroredProduct | null>();
  return {
    async *pages(): AsyncIterable<readonly AdminReview[]> {
      for (let skip = from, pages = 0; skip < end && pages < MAX_PAGES; pages++) {
        const page = await admin.listReviews(
          { status: "published", order: FEED_LIST_ORDER, includeOrderData: true, ...(skip ? { skip } : {}) },
          { signal: opts.signal },
        );
        const results = page.results.slice(0, end - skip);
        if (results.length) yield results;
        skip += page.results.length;
        if (page.results.length === 0 || skip >= page.total) return;
      }
    },
    // Reviews cluster on a shop's popular products: each is read from the mirror once per feed, and
    // only the fields an entry uses are kept (the payload is the whole catalog product).
    async products(keys) {
      const out = new Map<string, MirroredProduct>();
      const missing: string[] = [];
      for (const key of keys) {
        const kept = cache.get(key);
        if (kept === undefined) missing.push(key);
        else if (kept) out.set(key, kept);
      }
      if (!missing.length) return out;
      const found = new Map<string, MirroredProduct>();
      for (const row of await mirror.accepted(shopId, { keys: missing }, missing.length)) {
        const product = parsePayload(row.payload);
        if (product) found.set(row.sku, product);
      }
      for (const key of missing) {
        const product = found.get(key) ?? null;
        if (product) out.set(key, product);
        if (cache.size >= PRODUCTS_KEPT) cache.delete(cache.keys().next().value!);
        cache.set(key, product);
      }
      return out;
    },
  };
}

/** The fields of a catalog payload the feed reads; null for one that is not a product. */
function parsePayload(payload: string): MirroredProduct | null {
  try {
    const parsed = mirroredProductSchema.safeParse(JSON.parse(payload));
    if (!parsed.success) return null;
    const { sku, name, url, reference, brand, gtin, mpn, internalSku, status } = parsed.data;
    return { sku, name, url, reference, brand, gtin, mpn, internalSku, status };
  } catch {
    // A payload that is not JSON is no product: its reviews are left out as not in the catalog.
    return null;
  }
}
