import type { AdminReview } from "../reviews";

// Which Shopify customer wrote a review, from what the app already knows: the orders mirror
// (OrderState: order id and name → customer id). A review the service ties to an order carries
// that order's `userId` (the app sends the Shopify customer id there, never contact data) and, when
// the service sends it, its `orderId` (the order's id or its name, as the shop's `orderIdSource`
// setting sent it). A `userId` counts only when the mirror holds an order of that customer in
// this shop: a value the app did not send (a guest's stand-in, another platform's ids) names no one.

export interface CustomerLookup {
  /** Order id or order name (as sent to the service) → Shopify customer id. */
  byOrder: ReadonlyMap<string, string>;
  /** Customer ids with at least one order in the mirror. */
  known: ReadonlySet<string>;
}

export interface IndexRow {
  customerId: string;
  reviewId: string;
  sku: string;
  reviewedAt: Date;
}

const SHOPIFY_ID = /^\d{1,20}$/;

/** What to ask the mirror about these reviews. */
export function lookupKeys(reviews: readonly AdminReview[]): { orderIds: string[]; userIds: string[] } {
  const orderIds = new Set<string>();
  const userIds = new Set<string>();
  for (const r of reviews) {
    if (r.orderId) orderIds.add(r.orderId);
    if (r.userId && SHOPIFY_ID.test(r.userId)) userIds.add(r.userId);
  }
  return { orderIds: [...orderIds], userIds: [...userIds] };
}

/** The review's customer: its order's first, else its `userId` when the mirror knows that customer. */
export function customerOfReview(review: AdminReview, lookup: CustomerLookup): string | null {
  const byOrder = review.orderId ? lookup.byOrder.get(review.orderId) : undefined;
  if (byOrder) return byOrder;
  if (review.userId && SHOPIFY_ID.test(review.userId) && lookup.known.has(review.userId)) return review.userId;
  return null;
}

/** The index rows for these reviews; a review without a customer or a readable date is counted, not kept. */
export function indexRows(
  reviews: readonly AdminReview[],
  lookup: CustomerLookup,
): { rows: IndexRow[]; unresolved: number } {
  const rows = new Map<string, IndexRow>();
  let unresolved = 0;
  for (const r of reviews) {
    const customerId = customerOfReview(r, lookup);
    const at = r.created ? Date.parse(r.created) : NaN;
    if (!customerId || Number.isNaN(at)) {
      unresolved++;
      continue;
    }
    rows.set(r._id, { customerId, reviewId: r._id, sku: r.sku, reviewedAt: new Date(at) });
  }
  return { rows: [...rows.values()], unresolved };
}
