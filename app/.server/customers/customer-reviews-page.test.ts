import { describe, expect, it } from "vitest";
import type { AdminReview, ReviewsAdminApi } from "../reviews";
import { customerReviewsPage, readsFor, toItem } from "./customer-reviews-page";
import type { IndexRow } from "./review-customer";

// A page of the customer block: the index's rows read back in as few List reviews calls as the
// documented filters allow (one per product and submission day, paged by `skip` when that day holds
// more than a page), in the index's order; a review the service no longer lists is counted.

const row = (reviewId: string, sku: string, at: string): IndexRow => ({
  customerId: "7412345678901",
  reviewId,
  sku,
  reviewedAt: new Date(at),
});

// As List reviews returns them, with the product the service attaches.
const review = (id: string, sku: string, created: string, over: Partial<AdminReview> = {}): AdminReview =>
  ({
    _id: id,
    customer: "acme",
    userId: "7412345678901",
    name: "Ana S.",
    sku,
    text: "Soft and warm",
    status: "published",
    rating: 5,
    created,
    product: { _id: "p1", customer: "acme", sku, name: `Product ${sku}`, categories: ["Knitwear"] },
    ...over,
  }) as AdminReview;

describe("the customer block's page", () => {
  it("GIVEN rows THEN one read per product and UTC day", () => {
    const reads = readsFor([
      row("a", "8100000000007", "2026-11-26T23:59:00Z"),
      row("b", "8100000000007", "2026-11-26T00:01:00Z"),
      row("c", "8100000000007", "2026-11-27T00:01:00Z"),
      row("d", "8100000000014", "2026-11-26T12:00:00Z"),
    ]);
    expect(reads.map((r) => [r.sku, r.day, [...r.ids]])).toEqual([
      ["8100000000007", "2026-11-26", ["a", "b"]],
      ["8100000000007", "2026-11-27", ["c"]],
      ["8100000000014", "2026-11-26", ["d"]],
    ]);
  });

  it("GIVEN a review THEN what the block shows; a product the service does not name keeps its id", () => {
    const r = row("a", "8100000000007", "2026-11-26T10:00:00Z");
    expect(
      toItem(review("a", "8100000000007", "2026-11-26T10:00:00.000Z", { status: "pending", rating: 3 }), r),
    ).toEqual({
      id: "a",
      status: "pending",
      rating: 3,
      product: { id: "8100000000007", title: "Product 8100000000007" },
      submittedAt: "2026-11-26T10:00:00.000Z",
    });
    expect(toItem(review("a", "8100000000007", "2026-11-26T10:00:00.000Z", { product: null }), r).product).toEqual({
      id: "8100000000007",
      title: null,
    });
  });

  it("GIVEN a busy day on a product THEN the read pages on until it finds the review, and counts one gone", async () => {
    const day = "2026-11-26";
    const others = Array.from({ length: 7 }, (_, i) =>
      review(`other-${i}`, "8100000000007", `${day}T1${i}:00:00.000Z`, { userId: "7400000000000" }),
    );
    const mine = review("mine", "8100000000007", `${day}T09:00:00.000Z`);
    const all = [...others.reverse(), mine];
    const calls: Record<string, unknown>[] = [];
    const admin: Pick<ReviewsAdminApi, "listReviews"> = {
      async listReviews(query = {}) {
        calls.push(query);
        const skip = query.skip ?? 0;
        return { results: all.slice(skip, skip + 3), total: all.length };
      },
    };
    const index = {
      page: async () => ({
        rows: [row("mine", "8100000000007", `${day}T09:00:00Z`), row("gone", "8100000000007", `${day}T08:00:00Z`)],
        more: false,
      }),
    };
    const answer = await customerReviewsPage({ index, admin }, "shop-1", "7412345678901", 1);
    expect(answer).toMatchObject({ page: 1, hasNext: false, unavailable: 1, reviews: [{ id: "mine" }] });
    expect(calls).toEqual([
      { sku: "8100000000007", from: day, to: day, order: "created,-1" },
      { sku: "8100000000007", from: day, to: day, order: "created,-1", skip: 3 },
      { sku: "8100000000007", from: day, to: day, order: "created,-1", skip: 6 },
    ]);
  });
});
