import type { Db } from "../db";
import type { AdminReview } from "../reviews";
import { createCustomerReviewIndex } from "./customer-review.repository";
import { indexRows, lookupKeys } from "./review-customer";

/**
 * Keeps the customer → review index up to date with the reviews a back-sync run read (the
 * moderation feed's changes and the reviews collected since the last run). Returns how many were
 * indexed and how many had no customer the app knows (guests, orders it never mirrored).
 */
export async function indexCustomerReviews(
  db: Db,
  shopId: string,
  reviews: readonly AdminReview[],
): Promise<{ indexed: number; unresolved: number }> {
  if (reviews.length === 0) return { indexed: 0, unresolved: 0 };
  const index = createCustomerReviewIndex(db);
  const lookup = await index.lookup(shopId, lookupKeys(reviews));
  const { rows, unresolved } = indexRows(reviews, lookup);
  await index.record(shopId, rows);
  return { indexed: rows.length, unresolved };
}
