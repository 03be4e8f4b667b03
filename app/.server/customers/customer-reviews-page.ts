import type { AdminReview, ReviewsAdminApi } from "../reviews";
import type { CustomerReviewIndex } from "./customer-review.repository";
import type { IndexRow } from "./review-customer";

// One page of a customer's reviews for the customer details block: the index gives the review ids
// (newest submission first), the service gives the rest. The Admin API has no "review by id": each
// review is found in List reviews filtered by its product and its submission day (documented
// filters; `from`/`to` cover that one day), reviews of the same product and day in one read.

export const CUSTOMER_REVIEWS_PAGE_SIZE = 5;
/** Pages read per product and day: a product with hundreds of reviews in one day is not looked through. */
const MAX_PAGES_PER_DAY = 10;

export interface CustomerReviewItem {
  id: string;
  /** The service's status: published, removed, filtered, pending. */
  status: string;
  rating: number;
  product: { id: string; title: string | null };
  submittedAt: string;
}

export interface CustomerReviewsAnswer {
  reviews: CustomerReviewItem[];
  page: number;
  hasNext: boolean;
  /** Reviews of the customer that the service no longer lists (deleted there). */
  unavailable: number;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Pure: what the block shows of a review; the product's name is the service's catalog name. */
export function toItem(review: AdminReview, row: IndexRow): CustomerReviewItem {
  const name = (review.product as { name?: unknown } | null | undefined)?.name;
  return {
    id: review._id,
    status: review.status,
    rating: review.rating,
    product: { id: row.sku, title: typeof name === "string" && name ? name : null },
    submittedAt: review.created ?? row.reviewedAt.toISOString(),
  };
}

/** Pure: the index rows grouped into one read each (same product, same submission day). */
export function readsFor(rows: readonly IndexRow[]): { sku: string; day: string; ids: Set<string> }[] {
  const groups = new Map<string, { sku: string; day: string; ids: Set<string> }>();
  for (const r of rows) {
    const key = `${r.sku}\n${day(r.reviewedAt)}`;
    const g = groups.get(key) ?? { sku: r.sku, day: day(r.reviewedAt), ids: new Set<string>() };
    g.ids.add(r.reviewId);
    groups.set(key, g);
  }
  return [...groups.values()];
}

async function readBack(
  admin: Pick<ReviewsAdminApi, "listReviews">,
  rows: readonly IndexRow[],
  signal?: AbortSignal,
): Promise<Map<string, AdminReview>> {
  const found = new Map<string, AdminReview>();
  for (const read of readsFor(rows)) {
    let skip = 0;
    for (let pages = 0; pages < MAX_PAGES_PER_DAY; pages++) {
      const p = await admin.listReviews(
        { sku: read.sku, from: read.day, to: read.day, order: "created,-1", ...(skip ? { skip } : {}) },
        { signal },
      );
      for (const r of p.results) if (read.ids.has(r._id)) found.set(r._id, r);
      const n = p.results.length;
      if ([...read.ids].every((id) => found.has(id)) || n === 0 || skip + n >= p.total) break;
      skip += n;
    }
  }
  return found;
}

export async function customerReviewsPage(
  deps: { index: Pick<CustomerReviewIndex, "page">; admin: Pick<ReviewsAdminApi, "listReviews">; signal?: AbortSignal },
  shopId: string,
  customerId: string,
  page: number,
): Promise<CustomerReviewsAnswer> {
  const { rows, more } = await deps.index.page(shopId, customerId, {
    offset: (page - 1) * CUSTOMER_REVIEWS_PAGE_SIZE,
    limit: CUSTOMER_REVIEWS_PAGE_SIZE,
  });
  const found = rows.length ? await readBack(deps.admin, rows, deps.signal) : new Map<string, AdminReview>();
  const reviews: CustomerReviewItem[] = [];
  for (const row of rows) {
    const review = found.get(row.reviewId);
    if (review) reviews.push(toItem(review, row));
  }
  return { reviews, page, hasNext: more, unavailable: rows.length - reviews.length };
}
