// Store reviews and the top-rated list (Client API).
//
// Choices where the spec says "not shown" (also in README.md):
// - Only published store reviews are shown. `published/{sort}` sorts by `field,direction`
//   (created, sku, rating, helpful, unhelpful; 1/-1); without the segment `created,-1`; a bad sort
//   answers 400. It returns every published review unless `skip`/`limit` are sent.
// - Summary is a one-element array for the customer (count 0 and avgRating 0 when none).
// - Carousel: rating descending, then most recent, at most 10.
// - Top rated: the list kept in the customer's settings (set by the seed or the control API).
import { compareValues, json, parseFieldDirection, queryInt, round } from "./http";
import type { Route } from "./router";
import { clientCustomer, type Ctx, type Services } from "./services";
import type { CustomerState } from "./store";
import type { StoredStoreReview } from "./types";

const FIELDS = ["created", "sku", "rating", "helpful", "unhelpful"] as const;

function published(cs: CustomerState): StoredStoreReview[] {
  return [...cs.storeReviews.values()].filter((r) => r.status === "published");
}

function view(r: StoredStoreReview) {
  return { _id: r._id, created: r.created, customer: r.customer, rating: r.rating, text: r.text, name: r.name };
}

function summary(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const all = published(cs);
  return json(200, [
    {
      _id: cs.customer,
      count: all.length,
      avgRating: all.length ? round(all.reduce((s, r) => s + r.rating, 0) / all.length) : 0,
      enableStoreReview: cs.settings.enableStoreReview,
    },
  ]);
}

function list(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const sort = parseFieldDirection(ctx.params.sort, FIELDS, { field: "created", dir: -1 }, "sort");
  const skip = queryInt(ctx.query, "skip", { min: 0, fallback: 0 })!;
  const limit = queryInt(ctx.query, "limit", { min: 1 });
  const key = sort.field as keyof StoredStoreReview;
  const sorted = published(cs).sort(
    (a, b) =>
      sort.dir * compareValues(a[key], b[key]) || compareValues(b.created, a.created) || compareValues(b._id, a._id),
  );
  return json(200, { results: sorted.slice(skip, limit === undefined ? undefined : skip + limit).map(view) });
}

function carousel(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const top = published(cs)
    .sort((a, b) => b.rating - a.rating || compareValues(b.created, a.created) || compareValues(b._id, a._id))
    .slice(0, 10);
  return json(200, top.map(view));
}

function topRated(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  return json(200, { skus: cs.settings.topRated.skus, badgeLabel: cs.settings.topRated.badgeLabel });
}

export const storeRoutes: Route<Services>[] = [
  { method: "GET", pattern: "/api/:customer/store-reviews/summary", auth: "none", cors: true, handler: summary },
  { method: "GET", pattern: "/api/:customer/store-reviews/published", auth: "none", cors: true, handler: list },
  { method: "GET", pattern: "/api/:customer/store-reviews/published/:sort", auth: "none", cors: true, handler: list },
  { method: "GET", pattern: "/api/:customer/store-reviews/carousel", auth: "none", cors: true, handler: carousel },
  { method: "GET", pattern: "/api/:customer/top-rated/active", auth: "none", cors: true, handler: topRated },
];
