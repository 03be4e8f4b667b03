import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsClient } from "../../app/.server/reviews";
import { type ContractTarget, EMULATED, clientFor, openTarget } from "./target";

// Store reviews and the top-rated list (Client API). Their content is managed in the service's
// dashboard, so the suite checks shapes and the documented limits only.

let target: ContractTarget;
let client: ReviewsClient;

beforeAll(async () => {
  target = await openTarget();
  client = clientFor(target.account);
});
afterAll(async () => {
  await target?.close();
});

describe("store reviews", () => {
  it("summary is an array of {_id, count, avgRating}", async () => {
    const summary = await client.storefront.getStoreReviewsSummary();
    for (const s of summary) {
      expect(s.count).toBeGreaterThanOrEqual(0);
      expect(s._id).toEqual(expect.any(String));
    }
  });

  it("published list sorts by field,direction", async () => {
    const newest = await client.storefront.listPublishedStoreReviews({ field: "created", direction: -1 });
    const created = newest.results.map((r) => r.created ?? "");
    expect(created).toEqual([...created].sort().reverse());
    const byRating = await client.storefront.listPublishedStoreReviews({ field: "rating", direction: 1 });
    const ratings = byRating.results.map((r) => r.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
  });

  it("carousel holds at most 10 reviews", async () => {
    const carousel = await client.storefront.getStoreReviewsCarousel();
    expect(carousel.length).toBeLessThanOrEqual(10);
  });
});

describe("top rated", () => {
  it("answers skus and badgeLabel", async () => {
    const top = await client.storefront.getTopRated();
    expect(Array.isArray(top.skus)).toBe(true);
  });
});

if (EMULATED) {
  describe("with the emulator's demo data", () => {
    it("store reviews and the top-rated list are not empty", async () => {
      const [summary] = await client.storefront.getStoreReviewsSummary();
      expect(summary._id).toBe(target.account.customer);
      expect(summary.count).toBeGreaterThan(0);
      expect(summary.avgRating).toBeGreaterThan(0);
      const published = await client.storefront.listPublishedStoreReviews();
      expect(published.results).toHaveLength(summary.count);
      const carousel = await client.storefront.getStoreReviewsCarousel();
      expect(carousel.length).toBeGreaterThan(0);
      expect(carousel.length).toBeLessThanOrEqual(10);
      const top = await client.storefront.getTopRated();
      expect(top.skus.length).toBeGreaterThan(0);
      expect(top.badgeLabel).toEqual(expect.any(String));
    });
  });
}
