import { z } from "zod";
import type { StorefrontReview, SummaryResponse } from "../reviews";
import { safeUrl } from "../security";

// What a product page renders without a request: the app-owned JSON metafield
// `$app:reviews.snapshot` of each product with reviews. The theme's Liquid reads it
// (`product.metafields["$app:reviews"].snapshot.value`), and the app proxy renders later pages of
// reviews with the same review shape, so one Liquid snippet draws a review wherever it comes from.
//
// Shaped for Liquid: plain names, numbers already rounded, percentages already computed (Liquid
// arithmetic is clumsy and differs between renderers), dates as ISO strings for `| date`.

export const SNAPSHOT_NAMESPACE = "$app:reviews";
export const SNAPSHOT_KEY = "snapshot";
export const SNAPSHOT_VERSION = 1;
/** The platform refuses JSON values over 128 KB; we keep a product page's data far below that. */
export const SNAPSHOT_MAX_BYTES = 24 * 1024;

const media = z.object({ url: z.string(), thumb: z.string() });

export const snapshotReviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** ISO date-time of the review. */
  date: z.string(),
  rating: z.number().int().min(1).max(5),
  text: z.string(),
  verified: z.boolean(),
  recommended: z.boolean().nullable(),
  helpful: z.number().int().min(0),
  unhelpful: z.number().int().min(0),
  pictures: z.array(media),
  video: media.nullable(),
  reply: z.object({ text: z.string(), date: z.string() }).nullable(),
  /** A syndicated review: where it was first posted. */
  source: z.object({ name: z.string(), logo: z.string().nullable(), url: z.string().nullable() }).nullable(),
  /** The text as first written, when `text` is a translation. */
  original: z.string().nullable(),
});
export type SnapshotReview = z.infer<typeof snapshotReviewSchema>;

export const snapshotSchema = z.object({
  v: z.literal(SNAPSHOT_VERSION),
  sku: z.string(),
  /** Average of published reviews, one decimal. */
  avg: z.number(),
  count: z.number().int().min(0),
  /** Ratings 5 to 1, each with its count and its share of `count` in whole percent. */
  composition: z.array(
    z.object({
      rating: z.number().int().min(1).max(5),
      count: z.number().int().min(0),
      pct: z.number().int().min(0).max(100),
    }),
  ),
  /** Share of reviews that recommend, whole percent; null when the service gives none or there is no review. */
  recommendedPct: z.number().int().min(0).max(100).nullable(),
  /** The service's AI summary of the reviews, with the topics it found good or bad. */
  summary: z.object({ text: z.string(), positive: z.array(z.string()), negative: z.array(z.string()) }).nullable(),
  /** Attribute averages (stars: `avg` on its scale and `pct` of the scale for a bar). */
  attributes: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      avg: z.number(),
      scaleMin: z.number(),
      scaleMax: z.number(),
      pct: z.number().int().min(0).max(100),
    }),
  ),
  /** Filterable topics, most frequent first (values of the summary endpoint's `topics` filter). */
  topics: z.array(z.object({ name: z.string(), count: z.number().int().min(0) })),
  /** Stores the reviews come from (syndication), the store itself first; empty without syndication. */
  sources: z.array(z.object({ id: z.string(), name: z.string(), logo: z.string().nullable() })),
  counts: z.object({
    text: z.number().int().min(0),
    pictures: z.number().int().min(0),
    videos: z.number().int().min(0),
    verified: z.number().int().min(0),
  }),
  /** The first page of reviews in the default order (most helpful first). */
  reviews: z.array(snapshotReviewSchema),
  /** Reviews per page the app proxy should use for the next pages (the first page's size before shortening). */
  pageSize: z.number().int().min(1),
  /** True when the first page was shortened to stay under SNAPSHOT_MAX_BYTES. */
  shortened: z.boolean(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

const roundTo = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
const pct = (part: number, whole: number) =>
  whole > 0 ? Math.max(0, Math.min(100, Math.round((part / whole) * 100))) : 0;
const text = (v: unknown): string => (typeof v === "string" ? v : "");
const nullableText = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

function mediaOf(v: unknown): { url: string; thumb: string } | null {
  if (!v || typeof v !== "object") return null;
  const m = v as { url?: unknown; thumb?: unknown };
  // The theme links the url and shows the thumb: both pass the one URL rule, or the media is left out.
  const url = safeUrl(m.url, "storefront.review_media");
  if (url === null) return null;
  const thumb =
    m.thumb === undefined || m.thumb === null || m.thumb === "" ? url : safeUrl(m.thumb, "storefront.review_media");
  return thumb === null ? null : { url, thumb };
}

/**
 * The reviewer's name as the storefront shows it: the service's name, trimmed; empty means the
 * theme's translated "Anonymous" (reviews-review.liquid). The Google feed names reviewers with it
 * too, so a shopper sees the same name on the store and in Shopping.
 */
export const shownReviewerName = (name: unknown): string => text(name).trim();

/** One review of the Client API's summary in the shape the theme renders. */
export function toSnapshotReview(r: StorefrontReview): SnapshotReview {
  const reply = r.reply as { text?: unknown; created?: unknown } | null | undefined;
  const x = r as Record<string, unknown>;
  const sourceName = nullableText(x.syndicationDisplaySource) ?? nullableText(x.syndicationSourceCustomer);
  return {
    id: r._id,
    name: shownReviewerName(r.name),
    date: text(r.created),
    rating: Math.max(1, Math.min(5, Math.round(r.rating))),
    text: text(r.text),
    verified: r.verified === true,
    recommended: typeof r.recommended === "boolean" ? r.recommended : null,
    helpful: count(r.helpful),
    unhelpful: count(r.unhelpful),
    pictures: (r.pictures ?? []).map(mediaOf).filter((m): m is { url: string; thumb: string } => m !== null),
    video: mediaOf(r.video),
    reply:
      reply && typeof reply.text === "string" && reply.text ? { text: reply.text, date: text(reply.created) } : null,
    source: sourceName
      ? {
          name: sourceName,
          logo: safeUrl(x.syndicationSourceLogo, "storefront.source_logo"),
          url: safeUrl(x.syndicationSourceProductUrl, "storefront.review_source"),
        }
      : null,
    original: nullableText(x.syndicationOriginalText),
  };
}

/**
 * The snapshot of one product from the service's summary (first page, default order). Pure; the
 * caller decides whether it differs from what Shopify holds. Never fails for size: reviews are
 * dropped from the end of the page (then long texts cut) until the JSON fits in `maxBytes`.
 */
export function buildSnapshot(
  sku: string,
  summary: SummaryResponse,
  opts: { pageSize: number; maxBytes?: number },
): Snapshot {
  const maxBytes = opts.maxBytes ?? SNAPSHOT_MAX_BYTES;
  const agg = summary.reviews[0];
  const total = count(agg?.reviewCount);
  const byRating = new Map((summary.composition ?? []).map((c) => [Math.round(c._id), count(c.count)]));
  const compositionTotal = [...byRating.values()].reduce((a, b) => a + b, 0) || total;
  const product = (summary.product ?? {}) as Record<string, unknown>;
  const topicsMap = (product.aiSummaryTopics ?? {}) as Record<string, unknown>;
  const summaryText = nullableText(product.aiSummaryText);
  const attrs = (agg?.attributes ?? []) as Array<Record<string, unknown>>;

  const snapshot: Snapshot = {
    v: SNAPSHOT_VERSION,
    sku,
    avg: total > 0 ? roundTo(agg?.aggregateRating ?? 0, 1) : 0,
    count: total,
    composition: [5, 4, 3, 2, 1].map((rating) => ({
      rating,
      count: byRating.get(rating) ?? 0,
      pct: pct(byRating.get(rating) ?? 0, compositionTotal),
    })),
    // The service answers 0 % for a product without reviews: nobody recommends is not "0 % do".
    recommendedPct:
      total > 0 && typeof agg?.recommendedPercentage === "number"
        ? Math.round(Math.max(0, Math.min(100, agg.recommendedPercentage)))
        : null,
    summary: summaryText
      ? {
          text: summaryText,
          positive: Object.entries(topicsMap)
            .filter(([, v]) => v === "positive")
            .map(([k]) => k),
          negative: Object.entries(topicsMap)
            .filter(([, v]) => v === "negative")
            .map(([k]) => k),
        }
      : null,
    attributes: attrs
      .filter((a) => typeof a.avg === "number" && typeof a._id === "string")
      .map((a) => {
        const scaleMin = typeof a.scaleMin === "number" ? a.scaleMin : 1;
        const scaleMax = typeof a.scaleMax === "number" ? a.scaleMax : 5;
        const avg = roundTo(a.avg as number, 1);
        return {
          name: a._id as string,
          type: text(a.type) || "stars",
          avg,
          scaleMin,
          scaleMax,
          pct: scaleMax > scaleMin ? pct(avg - scaleMin, scaleMax - scaleMin) : 0,
        };
      }),
    topics: (summary.topicCounts ?? []).map((t) => ({ name: t.name, count: count(t.count) })),
    sources: ((summary.sourceStores ?? []) as Array<Record<string, unknown>>)
      .filter((s) => typeof s.customer === "string")
      .map((s) => ({
        id: s.customer as string,
        name: text(s.name) || (s.customer as string),
        logo: safeUrl(s.logo, "storefront.source_logo"),
      })),
    counts: {
      text: count(agg?.textReviews),
      pictures: count(agg?.pictureReviews),
      videos: count(agg?.videoReviews),
      verified: count(agg?.verifiedReviews),
    },
    reviews: (agg?.reviews ?? []).slice(0, opts.pageSize).map(toSnapshotReview),
    pageSize: opts.pageSize,
    shortened: false,
  };
  return fitSnapshot(snapshot, maxBytes);
}

export const snapshotBytes = (s: Snapshot) => Buffer.byteLength(JSON.stringify(s), "utf8");

/** Shortens the first page until the snapshot fits: whole reviews first, then long texts. */
export function fitSnapshot(snapshot: Snapshot, maxBytes = SNAPSHOT_MAX_BYTES): Snapshot {
  if (snapshotBytes(snapshot) <= maxBytes) return snapshot;
  const s: Snapshot = { ...snapshot, reviews: [...snapshot.reviews], shortened: true };
  while (s.reviews.length > 1 && snapshotBytes(s) > maxBytes) s.reviews.pop();
  // One review still too large (a very long text): cut its texts, keep the review.
  for (let limit = 4000; snapshotBytes(s) > maxBytes && limit >= 250; limit = Math.floor(limit / 2)) {
    s.reviews = s.reviews.map((r) => ({
      ...r,
      text: cut(r.text, limit),
      original: r.original === null ? null : cut(r.original, limit),
      reply: r.reply && { ...r.reply, text: cut(r.reply.text, limit) },
    }));
  }
  if (snapshotBytes(s) > maxBytes) s.reviews = [];
  // Topics, sources and attributes are bounded by the service's settings; the summary text is not.
  if (snapshotBytes(s) > maxBytes && s.summary) s.summary = { ...s.summary, text: cut(s.summary.text, 2000) };
  return s;
}

function cut(value: string, limit: number): string {
  if (value.length <= limit) return value;
  const chars = [...value];
  return chars.length <= limit
    ? value
    : `${chars
        .slice(0, limit - 1)
        .join("")
        .trimEnd()}…`;
}
