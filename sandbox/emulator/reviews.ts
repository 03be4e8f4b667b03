// Admin review endpoints: `GET|POST /{customer}/reviews/all` and `PUT /{customer}/reviews/{id}/moderate`.
//
// Choices where the spec says "not shown" (also in README.md):
// - Page size 50 (the `adminPageSize` option changes it); `limit` (1..500) is also accepted. Default order
// `created,-1`; ties by `_id`.
// - Approval sets status `published`, rejection `removed` (the review status that results: not
//   shown); both set `moderatedAt`, clear `autoModerated` and increment `__v`.
// - `tags` and `topics` take one value or several separated by `,` or `;`; a review matches when it
//   carries any of them.
// - `complete` = has text and at least one photo or video.
// - `sentiment` (POST body): positive = rating 4–5, neutral = 3, negative = 1–2.
// - `from`/`to` are inclusive UTC days on `created`.
// - Bad values (unknown status, rating 6, order field not in the list, hasText=maybe, bad dates)
//   answer 400 `{error: "invalid_request", message}` rather than being ignored.
import { z } from "zod";
import {
  badRequest,
  compareValues,
  json,
  noBody,
  notFound,
  parseFieldDirection,
  parseWith,
  queryBool,
  queryDay,
  queryInt,
  queryString,
} from "./http";
import type { Route } from "./router";
import { adminCustomer, type Ctx, type Services } from "./services";
import { hasText } from "./store";
import type { ReviewStatus, StoredReview } from "./types";
import { adminReview } from "./reviews.view";

export const ADMIN_PAGE_SIZE = 50;
export const ADMIN_MAX_LIMIT = 500;
const STATUSES: ReviewStatus[] = ["published", "removed", "filtered", "pending"];
const ORDER_FIELDS = ["created", "moderatedAt", "sku", "rating", "helpful", "unhelpful"] as const;

const listBodySchema = z.object({
  categories: z.array(z.string()).optional(),
  sentiment: z.enum(["positive", "negative", "neutral"]).optional(),
});

export function splitList(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = raw
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean);
  return values.length ? values : undefined;
}

export function sentimentOf(rating: number): "positive" | "neutral" | "negative" {
  return rating >= 4 ? "positive" : rating === 3 ? "neutral" : "negative";
}

/** `pageSize`: the instance's page size of the admin listings (`adminPageSize`, default 50). */
export function pageParams(q: URLSearchParams, pageSize = ADMIN_PAGE_SIZE) {
  return {
    skip: queryInt(q, "skip", { min: 0, fallback: 0 })!,
    limit: queryInt(q, "limit", { min: 1, max: ADMIN_MAX_LIMIT, fallback: pageSize })!,
  };
}

function listReviews(ctx: Ctx) {
  const q = ctx.query;
  const cs = adminCustomer(ctx);
  const body = ctx.method === "POST" ? parseWith(listBodySchema, ctx.body ?? {}) : {};
  const sku = queryString(q, "sku");
  const status = queryString(q, "status");
  if (status !== undefined && !STATUSES.includes(status as ReviewStatus)) {
    throw badRequest(`status must be one of ${STATUSES.join(", ")}`);
  }
  const order = parseFieldDirection(queryString(q, "order"), ORDER_FIELDS, { field: "created", dir: -1 });
  const rating = queryInt(q, "rating", { min: 1, max: 5 });
  const { skip, limit } = pageParams(q, ctx.services.adminPageSize);
  const tags = splitList(queryString(q, "tags"));
  const topics = splitList(queryString(q, "topics"));
  const from = queryDay(q, "from", "start");
  const to = queryDay(q, "to", "end");
  const flags = {
    hasText: queryBool(q, "hasText"),
    hasPicture: queryBool(q, "hasPicture"),
    hasVideo: queryBool(q, "hasVideo"),
    hasReply: queryBool(q, "hasReply"),
    complete: queryBool(q, "complete"),
    autoModerated: queryBool(q, "autoModerated"),
  };
  const includeOrderData = queryBool(q, "includeOrderData") ?? false;
  const categories = body.categories?.length ? new Set(body.categories) : undefined;

  const matches = (r: StoredReview): boolean => {
    if (sku !== undefined && r.sku !== sku) return false;
    if (status !== undefined && r.status !== status) return false;
    if (rating !== undefined && r.rating !== rating) return false;
    if (tags && !tags.some((t) => r.moderationTags.includes(t))) return false;
    if (topics && !topics.some((t) => r.topics.includes(t))) return false;
    const created = Date.parse(r.created);
    if (from !== undefined && created < from) return false;
    if (to !== undefined && created > to) return false;
    const text = hasText(r);
    const picture = r.pictures.length > 0;
    const video = r.video !== undefined;
    if (flags.hasText !== undefined && text !== flags.hasText) return false;
    if (flags.hasPicture !== undefined && picture !== flags.hasPicture) return false;
    if (flags.hasVideo !== undefined && video !== flags.hasVideo) return false;
    if (flags.hasReply !== undefined && (r.reply !== null) !== flags.hasReply) return false;
    if (flags.complete !== undefined && (text && (picture || video)) !== flags.complete) return false;
    if (flags.autoModerated !== undefined && r.autoModerated !== flags.autoModerated) return false;
    if (body.sentiment && sentimentOf(r.rating) !== body.sentiment) return false;
    if (categories) {
      const product = cs.products.get(r.sku);
      if (!product || !product.categories.some((c) => categories.has(c))) return false;
    }
    return true;
  };

  const found = [...cs.reviews.values()].filter(matches);
  const key = order.field as keyof StoredReview;
  found.sort((a, b) => order.dir * compareValues(a[key], b[key]) || order.dir * compareValues(a._id, b._id));
  const origin = ctx.services.urls.origin;
  return json(200, {
    results: found.slice(skip, skip + limit).map((r) => adminReview(r, cs, origin, includeOrderData)),
    total: found.length,
  });
}

const moderateSchema = z.object({ approved: z.boolean({ error: "approved (boolean) is required" }) });

function moderate(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const review = cs.reviews.get(ctx.params.id);
  if (!review) throw notFound(`review ${ctx.params.id} not found`);
  const { approved } = parseWith(moderateSchema, ctx.body ?? {});
  const now = ctx.services.clock.iso();
  cs.putReview({
    ...review,
    status: approved ? "published" : "removed",
    moderatedAt: now,
    autoModerated: false,
    updated: now,
    __v: review.__v + 1,
  });
  ctx.services.store.changed();
  return noBody();
}

export const reviewAdminRoutes: Route<Services>[] = [
  { method: "GET", pattern: "/api/:customer/reviews/all", auth: "admin", handler: listReviews },
  { method: "POST", pattern: "/api/:customer/reviews/all", auth: "admin", handler: listReviews },
  { method: "PUT", pattern: "/api/:customer/reviews/:id/moderate", auth: "admin", handler: moderate },
];
