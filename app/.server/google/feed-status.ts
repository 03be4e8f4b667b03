import type { Redis } from "ioredis";
import { z } from "zod";
import type { ExclusionReason } from "./feed-entry";
import { PRODUCTS_REPORTED, type FeedReport } from "./feed-writer";

// What the admin shows of the shop's Google feed without building it: the last whole feed the route
// wrote (when, how many reviews, what it left out and why), one Redis hash per shop with a field per
// part, and when Merchant Center (or anyone) last fetched it. Written once per whole feed and once
// per revalidation, read by one HGETALL: a few KB per shop (the products list is capped by the
// writer), gone after a quiet while, as the feed itself would be at Google.

/** Kept longer than Google's own staleness rule (a feed not refreshed for a month loses eligibility). */
const STATUS_TTL_S = 45 * 24 * 3600;
const FETCHED_FIELD = "fetched";

export interface FeedBuild {
  builtAt: string;
  part: number;
  /** How many parts the feed had when this one was written. */
  of: number;
  included: number;
  excluded: Partial<Record<ExclusionReason, number>>;
  overSize: number;
  bytes: number;
  /** Catalog key → the product's own reasons (the writer's `FeedReport.products`). */
  products: Record<string, ExclusionReason[]>;
}

/** The shop's feed as last written, over all its parts. */
export interface FeedStatus {
  /** The oldest part's build: the feed as a whole is at least this fresh. */
  builtAt: string | null;
  /** The last fetch answered, a whole feed or a 304. */
  fetchedAt: string | null;
  parts: number;
  included: number;
  excluded: Partial<Record<ExclusionReason, number>>;
  overSize: number;
  bytes: number;
  products: { key: string; reasons: ExclusionReason[] }[];
}

const reason = z.string() as z.ZodType<ExclusionReason>;
const buildSchema = z.object({
  builtAt: z.iso.datetime(),
  part: z.number().int().positive(),
  of: z.number().int().positive(),
  included: z.number().int().nonnegative(),
  excluded: z.record(z.string(), z.number().int().nonnegative()),
  overSize: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  products: z.record(z.string(), z.array(reason)),
});

export const feedStatusKey = (prefix: string, shopId: string) => `${prefix}google-feed:status:${shopId}`;

export function buildOf(report: FeedReport, part: number, of: number, at: Date): FeedBuild {
  return {
    builtAt: at.toISOString(),
    part,
    of,
    included: report.included,
    excluded: { ...report.excluded },
    overSize: report.overSize,
    bytes: report.bytes,
    products: report.products,
  };
}

/** A stored part, or null when it is not one (an older shape, a hand edit): it is then left out. */
export function parseBuild(raw: string): FeedBuild | null {
  try {
    const parsed = buildSchema.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as FeedBuild) : null;
  } catch {
    return null;
  }
}

/** The parts as one feed: counts summed, products listed once, in key order, at most PRODUCTS_REPORTED. */
export function mergeStatus(builds: readonly FeedBuild[], fetchedAt: string | null): FeedStatus {
  const excluded: Partial<Record<ExclusionReason, number>> = {};
  const products = new Map<string, Set<ExclusionReason>>();
  let included = 0;
  let overSize = 0;
  let bytes = 0;
  for (const b of builds) {
    included += b.included;
    overSize += b.overSize;
    bytes += b.bytes;
    for (const [r, n] of Object.entries(b.excluded) as [ExclusionReason, number][])
      excluded[r] = (excluded[r] ?? 0) + n;
    for (const [key, reasons] of Object.entries(b.products)) {
      const set = products.get(key) ?? new Set<ExclusionReason>();
      for (const r of reasons) set.add(r);
      products.set(key, set);
    }
  }
  const builtAt = builds.length ? builds.map((b) => b.builtAt).sort()[0]! : null;
  return {
    builtAt,
    fetchedAt,
    parts: builds.length,
    included,
    excluded,
    overSize,
    bytes,
    products: [...products.keys()]
      .sort()
      .slice(0, PRODUCTS_REPORTED)
      .map((key) => ({ key, reasons: [...products.get(key)!] })),
  };
}

/**
 * Best effort: the feed was written whether or not this is stored, so a Redis that cannot answer
 * costs the admin its figures, never Merchant Center its feed.
 */
export async function recordFeedBuild(
  redis: Pick<Redis, "hset" | "expire">,
  prefix: string,
  shopId: string,
  build: FeedBuild,
): Promise<boolean> {
  const key = feedStatusKey(prefix, shopId);
  try {
    await redis.hset(key, `part-${build.part}`, JSON.stringify(build), FETCHED_FIELD, build.builtAt);
    await redis.expire(key, STATUS_TTL_S);
    return true;
  } catch {
    return false;
  }
}

export async function recordFeedFetched(
  redis: Pick<Redis, "hset" | "expire">,
  prefix: string,
  shopId: string,
  at: Date,
): Promise<boolean> {
  const key = feedStatusKey(prefix, shopId);
  try {
    await redis.hset(key, FETCHED_FIELD, at.toISOString());
    await redis.expire(key, STATUS_TTL_S);
    return true;
  } catch {
    return false;
  }
}

/** The parts of the newest build's feed: a part left from when the shop had more reviews is dropped. */
export function currentParts(builds: readonly FeedBuild[]): FeedBuild[] {
  const newest = [...builds].sort((a, b) => b.builtAt.localeCompare(a.builtAt))[0];
  return newest ? builds.filter((b) => b.part <= newest.of).sort((a, b) => a.part - b.part) : [];
}

/** The shop's feed as last written, or null when none was. */
export async function readFeedStatus(
  redis: Pick<Redis, "hgetall">,
  prefix: string,
  shopId: string,
): Promise<FeedStatus | null> {
  const all = await redis.hgetall(feedStatusKey(prefix, shopId));
  const stored: FeedBuild[] = [];
  for (const [field, raw] of Object.entries(all)) {
    if (!field.startsWith("part-")) continue;
    const build = parseBuild(raw);
    if (build) stored.push(build);
  }
  const builds = currentParts(stored);
  if (!builds.length) return null;
  const fetched = all[FETCHED_FIELD];
  return mergeStatus(builds, fetched && !Number.isNaN(Date.parse(fetched)) ? fetched : null);
}
