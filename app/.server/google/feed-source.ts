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
    async products(keys) {
      const rows = await mirror.accepted(shopId, { keys }, keys.length);
      const out = new Map<string, MirroredProduct>();
      for (const row of rows) {
        try {
          const parsed = mirroredProductSchema.safeParse(JSON.parse(row.payload));
          if (parsed.success) out.set(row.sku, parsed.data);
        } catch {
          // A payload that is not JSON is no product: its reviews are left out as not in the catalog.
        }
      }
      return out;
    },
  };
}
