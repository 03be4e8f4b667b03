import { describe, expect, it } from "vitest";
import { pooled, starsAverage } from "./ratings";

describe("review volume and average", () => {
  it("GIVEN per-product counts and averages THEN the pooled average weighs each product by its reviews", () => {
    const r = pooled([
      { reviewCount: 3, aggregateRating: 5 },
      { reviewCount: 1, aggregateRating: 1 },
      { reviewCount: 0, aggregateRating: null },
    ]);
    expect(r.reviews).toBe(4);
    expect(r.average).toBe(4);
  });

  it("GIVEN a row with reviews but no average THEN it counts in the volume only", () => {
    expect(
      pooled([
        { reviewCount: 2, aggregateRating: null },
        { reviewCount: 2, aggregateRating: 3 },
      ]),
    ).toEqual({ reviews: 4, average: 3 });
    expect(pooled([])).toEqual({ reviews: 0, average: null });
  });

  it("GIVEN a star distribution THEN its average", () => {
    expect(starsAverage([1, 0, 0, 0, 1])).toBe(3);
    expect(starsAverage([0, 0, 0, 0, 0])).toBeNull();
  });
});
