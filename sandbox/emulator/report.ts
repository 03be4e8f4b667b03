// `GET /{customer}/products/report`.
//
// Without both `dateFrom` and `dateTo` the rows come from the aggregates the store maintains on every
// review write; with both, they are computed live from the reviews created in that range (inclusive
// UTC days). Only one of the two sent: ignored, as the spec ties the live mode to "both".
//
// Choices where the spec says "not shown" (also in README.md):
// - Rows are catalog products with at least one counted review (which is why `aggregateRating` is
//   never null while `publishedAggregateRating` can be); `total` counts those rows.
// - With `onlyPublished=true`, `reviewCount`, `aggregateRating` and the with* counters count
//   published reviews only.
// - Order (default MoreReviews; ties by SKU): MoreReviews/LessReviews sort by reviewCount;
//   MostPositive/MostNegative by aggregateRating, then more reviews first; Positive*/Negative* sort by
//   aggregateRating (desc/asc) first and then reviewCount (More = desc, Less = asc).
// - Averages are rounded to 2 decimals. `limit` must be >= 1, `skip` >= 0; bad values answer 400.
import { badRequest, json, queryBool, queryDay, queryInt, queryString, round } from "./http";
import type { Route } from "./router";
import { adminCustomer, type Ctx, type Services } from "./services";
import { addToAggregate, emptyAggregate } from "./store";
import type { ProductAggregate } from "./types";

export const REPORT_ORDERS = [
  "MoreReviews",
  "LessReviews",
  "MostPositive",
  "MostNegative",
  "PositiveMoreReviews",
  "PositiveLessReviews",
  "NegativeMoreReviews",
  "NegativeLessReviews",
] as const;
export type ReportOrder = (typeof REPORT_ORDERS)[number];

export interface ReportStats {
  reviewCount: number;
  aggregateRating: number | null;
  publishedCount: number;
  publishedAggregateRating: number | null;
  withPictures: number;
  withVideo: number;
  withText: number;
}

export function statsOf(agg: ProductAggregate, onlyPublished: boolean): ReportStats {
  const avg = (sum: number, n: number) => (n === 0 ? null : round(sum / n));
  const published = avg(agg.publishedRatingSum, agg.publishedCount);
  if (onlyPublished) {
    return {
      reviewCount: agg.publishedCount,
      aggregateRating: published,
      publishedCount: agg.publishedCount,
      publishedAggregateRating: published,
      withPictures: agg.publishedWithPictures,
      withVideo: agg.publishedWithVideo,
      withText: agg.publishedWithText,
    };
  }
  return {
    reviewCount: agg.reviewCount,
    aggregateRating: avg(agg.ratingSum, agg.reviewCount),
    publishedCount: agg.publishedCount,
    publishedAggregateRating: published,
    withPictures: agg.withPictures,
    withVideo: agg.withVideo,
    withText: agg.withText,
  };
}

export function compareRows(order: ReportOrder) {
  return (a: { sku: string; reviews: ReportStats }, b: { sku: string; reviews: ReportStats }): number => {
    const count = a.reviews.reviewCount - b.reviews.reviewCount;
    const rating = (a.reviews.aggregateRating ?? 0) - (b.reviews.aggregateRating ?? 0);
    const bySku = a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0;
    switch (order) {
      case "MoreReviews":
        return -count || bySku;
      case "LessReviews":
        return count || bySku;
      case "MostPositive":
      case "PositiveMoreReviews":
        return -rating || -count || bySku;
      case "MostNegative":
      case "NegativeMoreReviews":
        return rating || -count || bySku;
      case "PositiveLessReviews":
        return -rating || count || bySku;
      case "NegativeLessReviews":
        return rating || count || bySku;
    }
  };
}

function report(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const q = ctx.query;
  const order = (queryString(q, "order") ?? "MoreReviews") as ReportOrder;
  if (!REPORT_ORDERS.includes(order)) throw badRequest(`order must be one of ${REPORT_ORDERS.join(", ")}`);
  const limit = queryInt(q, "limit", { min: 1, fallback: 100 })!;
  const skip = queryInt(q, "skip", { min: 0, fallback: 0 })!;
  const sku = queryString(q, "sku");
  const categories = new Set(q.getAll("category").filter((c) => c !== ""));
  const from = queryDay(q, "dateFrom", "start");
  const to = queryDay(q, "dateTo", "end");
  if (from !== undefined && to !== undefined && from > to) throw badRequest("dateFrom must not be after dateTo");
  const live = from !== undefined && to !== undefined;
  const onlyPublished = queryBool(q, "onlyPublished") ?? false;

  const rows = [];
  for (const p of cs.products.values()) {
    if (sku !== undefined && p.sku !== sku) continue;
    if (categories.size && !p.categories.some((c) => categories.has(c))) continue;
    let agg: ProductAggregate | undefined;
    if (live) {
      agg = emptyAggregate();
      for (const r of cs.reviewsOf(p.sku)) {
        const t = Date.parse(r.created);
        if (t >= from && t <= to) addToAggregate(agg, r);
      }
    } else {
      agg = cs.aggregates.get(p.sku);
    }
    if (!agg) continue;
    const reviews = statsOf(agg, onlyPublished);
    if (reviews.reviewCount === 0) continue;
    rows.push({
      customer: p.customer,
      sku: p.sku,
      name: p.name,
      categories: p.categories,
      url: p.url,
      image: p.image,
      reviews,
    });
  }
  rows.sort(compareRows(order));
  return json(200, { result: rows.slice(skip, skip + limit), total: rows.length });
}

export const reportRoutes: Route<Services>[] = [
  { method: "GET", pattern: "/api/:customer/products/report", auth: "admin", handler: report },
];
