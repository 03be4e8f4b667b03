import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

// ETag and Last-Modified of a shop's feed, known before a byte of it is written: a digest of what
// the feed is built from, cheap to read (one short page of the service, one aggregate of the
// mirror), not of the feed itself, which would mean building it to answer a 304.
//
// What it covers: the published reviews (their count, and the top of the list by moderation time,
// where a review published, hidden or moderated again goes), the catalog mirror (how many payloads,
// the newest change), the shop's domain, the feed's language, the merchant's incentive setting and
// the writer's format. What it does
// not: a published review whose text changes without a moderation (the service does not document
// one); the next moderation or catalog change brings it.

/** Raised when what the writer writes changes, so every ETag changes with it. */
export const FEED_FORMAT = 2;
/** How many reviews at the top of the moderation order the digest covers. */
export const FEED_TOP_REVIEWS = 20;
/** How long a shop's validators are remembered (Merchant Center fetches daily). */
const VALIDATORS_TTL_S = 30 * 24 * 3600;

export interface FeedInputs {
  primaryDomain: string;
  locale: string;
  publishedTotal: number;
  /** `id:status` of the newest moderated published reviews, newest first. */
  topModerated: readonly string[];
  catalog: { count: number; changedAt: Date | null };
  /** `googleFeed.incentivizedReviews`: turning it on or off rewrites every review. */
  incentivizedReviews: boolean;
}

/** A strong ETag: the same inputs write the same bytes. */
export function feedEtag(inputs: FeedInputs): string {
  const digest = createHash("sha256")
    .update(
      JSON.stringify([
        FEED_FORMAT,
        inputs.primaryDomain,
        inputs.locale,
        inputs.publishedTotal,
        inputs.topModerated,
        inputs.catalog.count,
        inputs.catalog.changedAt?.toISOString() ?? null,
        inputs.incentivizedReviews,
      ]),
    )
    .digest("base64url");
  return `"${digest.slice(0, 32)}"`;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000) * 1000;

/**
 * Whether the client's copy is current (RFC 9110 13.2.2): If-None-Match decides when present
 * (weak comparison, `*` matches), and only without it If-Modified-Since, to the second.
 */
export function notModified(headers: Headers, etag: string, lastModified: Date): boolean {
  const inm = headers.get("if-none-match");
  if (inm !== null) {
    const tags = inm.split(",").map((t) => t.trim().replace(/^W\//, ""));
    return tags.includes("*") || tags.includes(etag);
  }
  const ims = headers.get("if-modified-since");
  if (ims === null) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && seconds(lastModified) <= since;
}

/**
 * Last-Modified for an ETag: when this shop's feed was first seen with it (kept in Redis), so the
 * date moves only when the feed does. A Redis that cannot answer gives `now`: a full answer, never
 * a wrong 304.
 */
export async function lastModifiedFor(
  redis: Pick<Redis, "get" | "set">,
  key: string,
  etag: string,
  now: Date,
): Promise<Date> {
  try {
    const stored = await redis.get(key);
    if (stored) {
      const { etag: seen, since } = JSON.parse(stored) as { etag?: string; since?: number };
      if (seen === etag && typeof since === "number") return new Date(since);
    }
    await redis.set(key, JSON.stringify({ etag, since: seconds(now) }), "EX", VALIDATORS_TTL_S);
  } catch {
    // Counted as a miss: the answer is the whole feed.
  }
  return new Date(seconds(now));
}

export const validatorsKey = (prefix: string, shopId: string, locale: string) =>
  `${prefix}google-feed:validators:${shopId}:${locale}`;
