import type { Redis } from "ioredis";
import type { Logger } from "../logger";
import type { ProductMirror } from "../catalog";
import { ReviewsError, type ReviewsAdminApi } from "../reviews";
import type { UrlPolicy } from "../security";
import type { ShopRepository } from "../shops";
import { parseSettings } from "../settings";
import {
  resolveLocale,
  type StorefrontLocale,
  type ProxyIdentity,
  clientIp,
  type LimitRule,
  type RateLimiter,
  plain,
  ProxySignatureError,
  unauthorized,
  verifyAppProxy,
  type AppProxyAuthenticate,
} from "../storefront";
import { emptyReport, writeFeed, type FeedReport } from "./feed-writer";
import { serviceFeedSource } from "./feed-source";
import { FEED_PART_REVIEWS, indexXml, parsePart, partCount, partUrl } from "./feed-parts";
import { buildOf, recordFeedBuild, recordFeedFetched } from "./feed-status";
import {
  FEED_TOP_REVIEWS,
  feedEtag,
  lastModifiedFor,
  notModified,
  validatorsKey,
  type FeedInputs,
} from "./feed-validators";

// GET {shop's domain}/apps/reviews/google-feed.xml[?part=2][&locale=pt-BR] and
// google-feed-index.xml (the parts, feed-parts.ts), through the app proxy: Shopify
// signs every request it forwards, Merchant Center's scheduled fetch included, so the feed is
// verified like every other proxy route and needs no secret in its URL (docs/google-feed.md).
//
// The answer is decided before the first byte: the validators come from one short read of the
// service and one aggregate of the mirror, so a 304 costs that much and a service that is down
// gives a 503 with Retry-After, never a 200 with half a feed. Google treats a feed as complete and
// deletes every review missing from it, so a failure while streaming errors the stream (the
// response ends unfinished, not closed as valid XML): Google then refuses the fetch and keeps
// what it had.

export interface GoogleFeedDeps {
  authenticate: AppProxyAuthenticate;
  shops: Pick<ShopRepository, "find">;
  adminFor(shop: string): Promise<Pick<ReviewsAdminApi, "listReviews">>;
  mirror: Pick<ProductMirror, "accepted" | "payloadVersion">;
  redis: Pick<Redis, "get" | "set" | "hset" | "expire">;
  redisPrefix: string;
  /** The storefront's word for a reviewer without a name, in `locale`. */
  anonymousName(locale: StorefrontLocale): string;
  urlPolicy: UrlPolicy;
  log: Logger;
  now?: () => Date;
  limiter: Pick<RateLimiter, "hit">;
  limits?: Partial<FeedLimits>;
  /** Reviews per part (FEED_PART_REVIEWS; smaller in tests). */
  perPart?: number;
}

/**
 * Anyone can ask a shop's storefront for the feed, and Shopify signs whatever it forwards: a whole
 * feed reads every published review from the service. Merchant Center fetches a day's feed once
 * (and retries); these keep a script from turning the route into a load on the service.
 */
export interface FeedLimits {
  /** Every request of one address (a 304 too: it reads the service once). */
  perIp: LimitRule;
  /** Every request for one shop, whatever the addresses: the bound on the service reads they cost. */
  perShop: LimitRule;
  /** Whole feeds written per shop and part. */
  buildsPerPart: LimitRule;
}

export const FEED_LIMITS: FeedLimits = {
  perIp: { max: 30, windowMs: 60_000 },
  perShop: { max: 120, windowMs: 60_000 },
  buildsPerPart: { max: 6, windowMs: 3_600_000 },
};

const tooMany = (retryAfterSeconds: number) =>
  plain(429, "Too many requests", { "Retry-After": String(retryAfterSeconds) });

const XML = "application/xml; charset=utf-8";
/** Merchant Center fetches once a day: a feed the service cannot give now is asked again later. */
const RETRY_AFTER_S = "600";

/** The report as a log line: numbers, and how many products were left out, not their list. */
const counts = ({ products, ...rest }: FeedReport) => ({ ...rest, productsLeftOut: Object.keys(products).length });

const unavailable = () => plain(503, "Reviews are unavailable, try again later", { "Retry-After": RETRY_AFTER_S });

/** What a failure may say in a log: its kind and status, never a URL, body or credential. */
const failure = (e: unknown) =>
  e instanceof ReviewsError
    ? { err: e.name, kind: e.kind, status: e.status }
    : { err: (e as Error)?.name ?? "unknown" };

interface Prepared {
  shopId: string;
  primaryDomain: string;
  pathPrefix: string;
  locale: StorefrontLocale;
  /** The locale as asked, kept in the parts' URLs. */
  askedLocale: string | null;
  admin: Pick<ReviewsAdminApi, "listReviews">;
  publishedTotal: number;
  incentivizedReviews: boolean;
  etag: string;
  lastModified: Date;
  validators: Record<string, string>;
  log: Logger;
}

/** Signature, shop, and the validators of what is asked: a Response when the answer is already known. */
async function prepare(request: Request, deps: GoogleFeedDeps, what: string | null): Promise<Prepared | Response> {
  let identity: ProxyIdentity;
  try {
    identity = await verifyAppProxy(request, deps.authenticate);
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  const { shop, pathPrefix } = identity;
  if (what === null) return plain(404, "Not found");
  const limits = { ...FEED_LIMITS, ...deps.limits };
  const byIp = await deps.limiter.hit("google-feed-ip", clientIp(request), limits.perIp);
  if (!byIp.ok) return tooMany(byIp.retryAfterSeconds);
  const byShop = await deps.limiter.hit("google-feed-shop", shop, limits.perShop);
  if (!byShop.ok) return tooMany(byShop.retryAfterSeconds);
  const log = deps.log.child({ shop, route: "google-feed" });
  const row = await deps.shops.find(shop);
  // No primary domain yet (read by the first sync): no product URL could be written.
  if (!row || row.installState !== "installed" || !row.customerKey || !row.primaryDomain) {
    return plain(404, "Not found");
  }
  const askedLocale = new URL(request.url).searchParams.get("locale");
  const locale = resolveLocale(askedLocale ?? undefined);
  const { incentivizedReviews } = parseSettings(row.settings).googleFeed;
  let admin: Pick<ReviewsAdminApi, "listReviews">;
  let inputs: FeedInputs;
  try {
    admin = await deps.adminFor(shop);
    const [top, catalog] = await Promise.all([
      admin.listReviews({ status: "published", order: "moderatedAt,-1" }, { signal: request.signal }),
      deps.mirror.payloadVersion(row.id),
    ]);
    inputs = {
      primaryDomain: row.primaryDomain,
      locale: `${locale}:${what}`,
      publishedTotal: top.total,
      topModerated: top.results.slice(0, FEED_TOP_REVIEWS).map((r) => `${r._id}:${r.status}`),
      catalog,
      incentivizedReviews,
    };
  } catch (e) {
    log.warn(failure(e), "google feed: inputs unavailable");
    return unavailable();
  }
  const etag = feedEtag(inputs);
  const now = deps.now?.() ?? new Date();
  const key = validatorsKey(deps.redisPrefix, row.id, `${locale}:${what}`);
  const lastModified = await lastModifiedFor(deps.redis, key, etag, now);
  const validators = { ETag: etag, "Last-Modified": lastModified.toUTCString(), "Cache-Control": "no-cache" };
  if (notModified(request.headers, etag, lastModified)) {
    // The admin says when the feed was last fetched: a revalidation is one (Merchant Center's daily).
    await recordFeedFetched(deps.redis, deps.redisPrefix, row.id, now);
    return new Response(null, { status: 304, headers: validators });
  }
  return {
    shopId: row.id,
    primaryDomain: row.primaryDomain,
    pathPrefix,
    locale,
    askedLocale,
    admin,
    publishedTotal: inputs.publishedTotal,
    incentivizedReviews,
    etag,
    lastModified,
    validators,
    log,
  };
}

export async function googleFeedResponse(request: Request, deps: GoogleFeedDeps): Promise<Response> {
  const part = parsePart(new URL(request.url).searchParams.get("part"));
  // Checked before anything is read; a signature check still comes first for every answer.
  const p = await prepare(request, deps, part === null ? null : `part-${part}`);
  if (p instanceof Response) return p;
  const perPart = deps.perPart ?? FEED_PART_REVIEWS;
  if (part === null || part > partCount(p.publishedTotal, perPart)) return plain(404, "Not found");
  const headers = { ...p.validators, "Content-Type": XML, "X-Content-Type-Options": "nosniff" };
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });
  const rule = { ...FEED_LIMITS, ...deps.limits }.buildsPerPart;
  const built = await deps.limiter.hit("google-feed-build", `${p.shopId}:${part}`, rule);
  if (!built.ok) return tooMany(built.retryAfterSeconds);

  const report = emptyReport();
  const source = serviceFeedSource(p.admin, deps.mirror, p.shopId, {
    from: (part - 1) * perPart,
    limit: perPart,
    signal: request.signal,
  });
  const shop = {
    primaryDomain: p.primaryDomain,
    anonymousName: deps.anonymousName(p.locale),
    urlPolicy: deps.urlPolicy,
    incentivizedReviews: p.incentivizedReviews,
  };
  const chunks = writeFeed(source, { shop, publisherName: new URL(p.primaryDomain).hostname }, report)[
    Symbol.asyncIterator
  ]();
  const encoder = new TextEncoder();
  const started = Date.now();
  const log = p.log;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          // Recorded before the end reaches the client: a page opened right after the fetch sees it.
          const at = deps.now?.() ?? new Date();
          await recordFeedBuild(
            deps.redis,
            deps.redisPrefix,
            p.shopId,
            buildOf(report, part, partCount(p.publishedTotal, perPart), at),
          );
          controller.close();
          log.info({ part, ...counts(report), ms: Date.now() - started }, "google feed written");
        } else controller.enqueue(encoder.encode(next.value));
      } catch (e) {
        log.warn({ part, ...failure(e), ...counts(report) }, "google feed: stream broken off");
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  });
  return new Response(body, { status: 200, headers });
}

/** The parts of the shop's feed, as a sitemaps.org index of their URLs. */
export async function googleFeedIndexResponse(request: Request, deps: GoogleFeedDeps): Promise<Response> {
  const p = await prepare(request, deps, "index");
  if (p instanceof Response) return p;
  const count = partCount(p.publishedTotal, deps.perPart ?? FEED_PART_REVIEWS);
  const urls: string[] = [];
  for (let part = 1; part <= count; part++) {
    const url = partUrl(p.primaryDomain, p.pathPrefix, part, p.askedLocale ? p.locale : null, deps.urlPolicy);
    if (url === null) return plain(404, "Not found");
    urls.push(url);
  }
  const headers = { ...p.validators, "Content-Type": XML, "X-Content-Type-Options": "nosniff" };
  return new Response(request.method === "HEAD" ? null : indexXml(urls, p.lastModified), { status: 200, headers });
}
