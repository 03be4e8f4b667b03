// Review volume and average rating from the service's per-product counts and averages (the product
// report), and the average of a 1–5 star distribution.

import type { MonthKey } from "./months";

export interface TrendMonth {
  month: MonthKey;
  reviews: number;
  average: number | null;
}

export interface CountAndAverage {
  reviewCount: number;
  aggregateRating: number | null;
}

/** All the rows' reviews together: their number and their average (null without reviews). */
export function pooled(rows: Iterable<CountAndAverage>): { reviews: number; average: number | null } {
  let reviews = 0;
  let rated = 0;
  let sum = 0;
  for (const r of rows) {
    reviews += r.reviewCount;
    // A row with reviews but no average counts in the volume, not in the average.
    if (!r.reviewCount || r.aggregateRating === null) continue;
    rated += r.reviewCount;
    sum += r.reviewCount * r.aggregateRating;
  }
  return { reviews, average: rated ? sum / rated : null };
}

/** `counts[i]` reviews of `i + 1` stars: their average, null without reviews. */
export function starsAverage(counts: number[]): number | null {
  const n = counts.reduce((a, b) => a + b, 0);
  return n ? counts.reduce((a, c, i) => a + c * (i + 1), 0) / n : null;
}
