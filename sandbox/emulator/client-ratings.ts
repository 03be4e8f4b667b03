// Client API reads of product reviews: `GET /{customer}/ratings` and
// `GET /{customer}/{sku}/summary[/{sortField,sortOrder}]`. Only published reviews are shown.
//
// Choices where the spec says "not shown" (also in README.md):
// - Reviews of the products of one group are pooled: a SKU's ratings and summary count the
//   published reviews of every SKU of its group, and each review then carries `productReviewed`.
// - Summary counts: `reviewCount` is the number of reviews matching the filters (the spec tells
//   callers to page until `reviewCount` is reached); `aggregateRating`, `recommendedPercentage`, the
//   *Reviews counters, `composition`, `topicCounts` and attribute averages describe all published
//   reviews of the product, so a widget's header stays put while the shopper filters.
// - `composition` always has five entries, ratings 5 down to 1, zero counts included.
// - Averages and percentages are rounded to 2 decimals; percentage is 0–100.
// - An unknown sortField falls back to helpfulScore (as sortOrder falls back to desc); bad `page`,
//   `pageSize`, `filterMedia` or `rating` values answer 400.
// - `hasText=false` / `verified=false` do not filter (the spec defines only `true`).
// - A SKU without catalog record or published review answers 200 with zero counts and
//   `product: null` (storefront widgets ask for every product page).
// - `ratings` without `skus` answers 400; entries come back in request order, duplicates dropped.
import { badRequest, compareValues, json, queryBool, queryInt, queryString, round } from "./http";
import type { Route } from "./router";
import { clientCustomer, type Ctx, type Services } from "./services";
import { hasText } from "./store";
import type { CustomerState } from "./store";
import type { StoredReview } from "./types";
import { clientReview, helpfulScore } from "./reviews.view";
import { summaryProduct } from "./products.view";

export const SORT_FIELDS = ["helpfulScore", "created", "rating", "helpful"] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** The SKUs whose reviews are shown for `sku`: its group's, or just itself. */
export function pooledSkus(cs: CustomerState, sku: string): string[] {
  return cs.groupOf(sku)?.skus ?? [sku];
}

export function publishedReviews(cs: CustomerState, sku: string): StoredReview[] {
  const skus = pooledSkus(cs, sku);
  const all = skus.includes(sku) ? skus : [sku, ...skus];
  return all.flatMap((s) => cs.reviewsOf(s)).filter((r) => r.status === "published");
}

/** `{sortField,sortOrder}` segment: unknown field → helpfulScore, anything but asc → desc. */
export function parseSortSegment(segment: string | undefined): { field: SortField; dir: 1 | -1 } {
  if (!segment) return { field: "helpfulScore", dir: -1 };
  const [f, o] = segment.split(",").map((s) => s.trim());
  const field = (SORT_FIELDS as readonly string[]).includes(f) ? (f as SortField) : "helpfulScore";
  return { field, dir: o?.toLowerCase() === "asc" ? 1 : -1 };
}

/** Main criterion, then video first, photo first, most recent; `_id` keeps it total. */
export function sortReviews(reviews: StoredReview[], field: SortField, dir: 1 | -1, nowMs: number): StoredReview[] {
  const value = (r: StoredReview) => (field === "helpfulScore" ? helpfulScore(r, nowMs) : r[field]);
  return [...reviews].sort(
    (a, b) =>
      dir * compareValues(value(a), value(b)) ||
      Number(b.video !== undefined) - Number(a.video !== undefined) ||
      Number(b.pictures.length > 0) - Number(a.pictures.length > 0) ||
      compareValues(b.created, a.created) ||
      compareValues(b._id, a._id),
  );
}

function ratingEntry(cs: CustomerState, sku: string) {
  const reviews = publishedReviews(cs, sku);
  const product = cs.products.get(sku);
  if (reviews.length === 0) {
    return { sku, aggregateRating: 0, recommended: 0, recommendedPercentage: 0, reviewCount: 0 };
  }
  const recommended = reviews.filter((r) => r.recommended).length;
  return {
    ...(product ? { product: { image: product.image ?? null, name: product.name, url: product.url ?? null } } : {}),
    sku,
    aggregateRating: round(reviews.reduce((s, r) => s + r.rating, 0) / reviews.length),
    recommended,
    recommendedPercentage: round((recommended / reviews.length) * 100),
    reviewCount: reviews.length,
  };
}

function ratings(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const raw = queryString(ctx.query, "skus");
  if (raw === undefined) throw badRequest("skus is required (comma-separated product ids)");
  const skus = [
    ...new Set(
      raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  return json(
    200,
    skus.map((sku) => ratingEntry(cs, sku)),
  );
}

function summary(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const sku = ctx.params.sku;
  const q = ctx.query;
  const { field, dir } = parseSortSegment(ctx.params.sort);
  const page = queryInt(q, "page", { min: 1, fallback: 1 })!;
  const pageSize = queryInt(q, "pageSize", { min: 1, fallback: 5 })!;
  const filterMedia = queryString(q, "filterMedia");
  if (filterMedia !== undefined && !["pictures", "videos", "any", "none"].includes(filterMedia)) {
    throw badRequest("filterMedia must be pictures, videos, any or none");
  }
  const onlyText = queryBool(q, "hasText") === true;
  const onlyVerified = queryBool(q, "verified") === true;
  const ratingRaw = queryString(q, "rating");
  const ratingsWanted = ratingRaw
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      if (!/^[1-5]$/.test(s)) throw badRequest("rating must be one or more of 1..5 separated by commas");
      return Number(s);
    });
  const topics = queryString(q, "topics")
    ?.split(";")
    .map((s) => s.trim())
    .filter(Boolean);
  const sourceStores = queryString(q, "sourceStore")
    ?.split(";")
    .map((s) => s.trim())
    .filter(Boolean);

  const all = publishedReviews(cs, sku);
  const filtered = all.filter((r) => {
    const picture = r.pictures.length > 0;
    const video = r.video !== undefined;
    if (filterMedia === "pictures" && !picture) return false;
    if (filterMedia === "videos" && !video) return false;
    if (filterMedia === "any" && !picture && !video) return false;
    if (filterMedia === "none" && (picture || video)) return false;
    if (onlyText && !hasText(r)) return false;
    if (onlyVerified && !r.verified) return false;
    if (ratingsWanted?.length && !ratingsWanted.includes(r.rating)) return false;
    if (topics?.length && !topics.some((t) => r.topics.includes(t))) return false;
    if (sourceStores?.length && !sourceStores.includes(r.syndication?.sourceCustomer ?? cs.customer)) return false;
    return true;
  });
  const nowMs = ctx.services.clock.now();
  const sorted = sortReviews(filtered, field, dir, nowMs);
  const pageItems = sorted.slice((page - 1) * pageSize, page * pageSize);
  const inGroup = cs.groupOf(sku) !== undefined;
  const origin = ctx.services.urls.origin;
  const product = cs.products.get(sku);

  const recommended = all.filter((r) => r.recommended).length;
  const withPicture = (r: StoredReview) => r.pictures.length > 0;
  const withVideo = (r: StoredReview) => r.video !== undefined;

  const attributes = [...cs.attributes.values()]
    .sort((a, b) => a.order - b.order)
    .flatMap((def) => {
      const values = all.flatMap((r) => r.attributes.filter((a) => a._id === def._id).map((a) => a.value));
      if (!values.length) return [];
      return [
        {
          _id: def.title,
          description: def.description,
          avg: round(values.reduce((s, v) => s + v, 0) / values.length),
          type: def.type,
          choices: def.choices,
          scaleMin: def.scaleMin,
          scaleMax: def.scaleMax,
          appliesTo: def.appliesTo,
        },
      ];
    });

  const topicCounts = new Map<string, number>();
  for (const r of all) for (const t of r.topics) topicCounts.set(t, (topicCounts.get(t) ?? 0) + 1);

  const sourceIds = [...new Set(all.flatMap((r) => (r.syndication ? [r.syndication.sourceCustomer] : [])))];
  const hasNative = all.some((r) => !r.syndication);
  const stores = sourceIds.length
    ? [
        ...(hasNative ? [{ customer: cs.customer, name: cs.settings.storeName, logo: cs.settings.logo }] : []),
        ...sourceIds.map((id) => ({
          customer: id,
          name: cs.settings.syndicationStores[id]?.name ?? id,
          logo: cs.settings.syndicationStores[id]?.logo ?? null,
        })),
      ]
    : [];

  return json(200, {
    reviews: [
      {
        _id: sku,
        aggregateRating: all.length ? round(all.reduce((s, r) => s + r.rating, 0) / all.length) : 0,
        recommendedPercentage: all.length ? round((recommended / all.length) * 100) : 0,
        reviewCount: filtered.length,
        textReviews: all.filter(hasText).length,
        pictureReviews: all.filter(withPicture).length,
        videoReviews: all.filter(withVideo).length,
        mediaReviews: all.filter((r) => withPicture(r) || withVideo(r)).length,
        verifiedReviews: all.filter((r) => r.verified).length,
        attributes,
        reviews: pageItems.map((r) => {
          const reviewed = inGroup ? cs.products.get(r.sku) : undefined;
          return clientReview(
            r,
            cs,
            origin,
            nowMs,
            reviewed ? { sku: reviewed.sku, name: reviewed.name, url: reviewed.url ?? null } : null,
          );
        }),
      },
    ],
    composition: [5, 4, 3, 2, 1].map((n) => ({ _id: n, count: all.filter((r) => r.rating === n).length })),
    customerSettings: { minStarsHighlightPDP: cs.settings.minStarsHighlightPDP },
    sourceStores: stores,
    syndicationSources: sourceIds,
    topicCounts: [...topicCounts]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => b.count - a.count || compareValues(a.name, b.name)),
    product: product ? summaryProduct(product, cs.aggregates.get(sku)) : null,
  });
}

export const ratingRoutes: Route<Services>[] = [
  { method: "GET", pattern: "/api/:customer/ratings", auth: "none", cors: true, handler: ratings },
  { method: "GET", pattern: "/api/:customer/:sku/summary", auth: "none", cors: true, handler: summary },
  { method: "GET", pattern: "/api/:customer/:sku/summary/:sort", auth: "none", cors: true, handler: summary },
];
