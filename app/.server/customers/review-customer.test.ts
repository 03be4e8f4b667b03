import { describe, expect, it } from "vitest";
import type { AdminReview } from "../reviews";
import { customerOfReview, indexRows, lookupKeys, type CustomerLookup } from "./review-customer";

// Whose review it is, from the orders mirror only: the review's order first, then its userId when
// the mirror knows that customer; anything else (a guest's stand-in, an unknown id) names no one.

// As List reviews returns them ("Review (as returned to the administrator)").
const review = (over: Partial<AdminReview>): AdminReview =>
  ({
    _id: "674a1f0c2b9e4d0012ab34cd",
    customer: "acme",
    userId: "7412345678901",
    name: "Maria S.",
    sku: "8100000000007",
    text: "Arrived quickly, fits well.",
    source: "email",
    status: "published",
    rating: 4,
    helpful: 0,
    unhelpful: 0,
    verified: true,
    created: "2026-11-26T10:15:00.000Z",
    ...over,
  }) as AdminReview;

const lookup: CustomerLookup = {
  byOrder: new Map([
    ["5912345678901", "7412345678902"],
    ["#1037", "7412345678902"],
  ]),
  known: new Set(["7412345678901", "7412345678902"]),
};

describe("the customer of a review", () => {
  it("GIVEN a review of a known customer THEN theirs", () => {
    expect(customerOfReview(review({}), lookup)).toBe("7412345678901");
  });

  it("GIVEN the review's order in the mirror (by id or by name) THEN the order's customer, whatever the userId", () => {
    expect(customerOfReview(review({ orderId: "5912345678901", userId: "" }), lookup)).toBe("7412345678902");
    expect(customerOfReview(review({ orderId: "#1037", userId: "7412345678901" }), lookup)).toBe("7412345678902");
  });

  it("GIVEN a guest's stand-in, an id the mirror does not know, or none THEN no one", () => {
    expect(customerOfReview(review({ userId: "guest-9f2c1a" }), lookup)).toBeNull();
    expect(customerOfReview(review({ userId: "7400000000000" }), lookup)).toBeNull();
    expect(customerOfReview(review({ userId: null, orderId: "5900000000000" }), lookup)).toBeNull();
  });

  it("GIVEN a run's reviews THEN the keys asked of the mirror are Shopify ids and order references only", () => {
    expect(
      lookupKeys([
        review({}),
        review({ _id: "b", userId: "guest-9f2c1a", orderId: "#1037" }),
        review({ _id: "c", userId: "7412345678901" }),
      ]),
    ).toEqual({ orderIds: ["#1037"], userIds: ["7412345678901"] });
  });

  it("GIVEN reviews read twice in one run THEN one row each, with the product and submission date; the rest counted", () => {
    const { rows, unresolved } = indexRows(
      [
        review({}),
        review({}),
        review({ _id: "674a1e982b9e4d0012ab34c1", userId: "guest-9f2c1a" }),
        review({ _id: "674a1e982b9e4d0012ab34c2", created: undefined }),
      ],
      lookup,
    );
    expect(rows).toEqual([
      {
        customerId: "7412345678901",
        reviewId: "674a1f0c2b9e4d0012ab34cd",
        sku: "8100000000007",
        reviewedAt: new Date("2026-11-26T10:15:00.000Z"),
      },
    ]);
    expect(unresolved).toBe(2);
  });
});
