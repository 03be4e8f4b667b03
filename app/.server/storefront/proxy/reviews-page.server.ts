import type { Logger } from "pino";
import { ReviewsError, type ReviewsStorefrontApi, type SummaryResponse } from "../../reviews";
import { toSnapshotReview, type SnapshotReview, type createProxyPathStore } from "../../theme";
import { badRequest, failureStatus, fragmentFailure, fragmentPage } from "./fragment-answers";
import { clientIp, type LimitRule, type RateLimiter } from "./rate-limits";
import { proxyCacheKey, type ResponseCache } from "./response-cache";
import { parseReviewsQuery, type ReviewsPageQuery, type StorefrontLocale } from "./reviews-query";
import { PRODUCT_KEY } from "./path-keys";
import { ProxySignatureError, unauthorized, verifyAppProxy, type AppProxyAuthenticate } from "./verify-proxy.server";

// `GET <proxy>/products/<sku>/reviews?...`: one page of a product's reviews as an HTML fragment,
// rendered from the theme's own `reviews-page` snippet so a review looks the same as in the block.
// Order of checks: signature (401) → input (400) → shopper limit (429) → cache → shop limit (429)
// → the one client → render. The service failing answers a translated message with a retry.

/** What the `reviews-page` snippet receives (its `{% doc %}` documents each). */
export interface ReviewsPageVars {
  reviews: SnapshotReview[];
  page: number;
  pages: number;
  /** Reviews matching the filters (the service's `reviewCount`). */
  total: number;
  page_size: number;
  /** `<field>,<order>`, e.g. `created,desc`. */
  sort: string;
  /** Any filter active (the snippet then offers to clear them when nothing matches). */
  filtered: boolean;
}

export interface ReviewsPageDeps {
  authenticate: AppProxyAuthenticate;
  reviewsFor(shop: string): Promise<Pick<ReviewsStorefrontApi, "getSummary">>;
  render(vars: ReviewsPageVars, locale: StorefrontLocale): Promise<string>;
  /** The theme's `reviews-error` snippet (translated message and retry button). */
  renderError(locale: StorefrontLocale): Promise<string>;
  cache: ResponseCache;
  limits: RateLimiter;
  proxyPaths: ReturnType<typeof createProxyPathStore>;
  log: Logger;
  settings: { redisPrefix: string; cacheMs: number; ipLimit: LimitRule; shopLimit: LimitRule; defaultPageSize: number };
}

class ShopLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("shop limit reached");
  }
}

export async function reviewsPageResponse(request: Request, sku: string, deps: ReviewsPageDeps): Promise<Response> {
  let shop: string;
  let pathPrefix: string;
  try {
    ({ shop, pathPrefix } = await verifyAppProxy(request, deps.authenticate));
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  void deps.proxyPaths
    .record(shop, pathPrefix)
    .catch((e: Error) => deps.log.warn({ shop, err: e.message }, "app proxy path not recorded"));

  if (!PRODUCT_KEY.test(sku)) return badRequest("the product key in the path is not valid");
  const parsed = parseReviewsQuery(new URL(request.url).searchParams, { pageSize: deps.settings.defaultPageSize });
  if (!parsed.ok) return badRequest(parsed.message);
  const { query } = parsed;

  const key = proxyCacheKey(deps.settings.redisPrefix, {
    shop,
    route: `products/${sku}/reviews`,
    normalQuery: query.normal,
  });
  try {
    // The shopper's limit and the cache are asked at once (one round trip's wait, not two); the
    // limit still decides first. Redis failing lands in the catch below: the error fragment.
    const [ip, cached] = await Promise.all([
      deps.limits.hit("ip", clientIp(request), deps.settings.ipLimit),
      deps.cache.get(key),
    ]);
    if (!ip.ok) return fragmentFailure(deps, query.locale, "busy", 429, ip.retryAfterSeconds);
    if (cached !== null) return fragmentPage(cached, true, deps.settings.cacheMs);
    // Two layers: the service's answer (shared by every language of the storefront) and the page
    // rendered from it in the shopper's language. Only a call to the service counts against the shop.
    const summaryKey = proxyCacheKey(deps.settings.redisPrefix, {
      shop,
      route: `products/${sku}/summary`,
      normalQuery: query.upstream,
    });
    const { value, hit } = await deps.cache.getOrCompute(key, async () => {
      const { value: summary } = await deps.cache.getOrCompute(summaryKey, async () => {
        const limit = await deps.limits.hit("shop", shop, deps.settings.shopLimit);
        if (!limit.ok) throw new ShopLimited(limit.retryAfterSeconds);
        const client = await deps.reviewsFor(shop);
        return JSON.stringify(await client.getSummary(sku, query.options));
      });
      return deps.render(pageVars(query, JSON.parse(summary) as SummaryResponse), query.locale);
    });
    return fragmentPage(value, hit, deps.settings.cacheMs);
  } catch (error) {
    if (error instanceof ShopLimited) return fragmentFailure(deps, query.locale, "busy", 429, error.retryAfterSeconds);
    const { status, retryAfterSeconds } = failureStatus(error);
    deps.log[status === 502 ? "error" : "warn"](
      { shop, sku, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
      "app proxy: reviews page not served",
    );
    return fragmentFailure(deps, query.locale, "unavailable", status, retryAfterSeconds);
  }
}

function pageVars(query: ReviewsPageQuery, summary: SummaryResponse): ReviewsPageVars {
  const agg = summary.reviews[0];
  const total = agg?.reviewCount ?? 0;
  const o = query.options;
  const pageSize = o.pageSize ?? 5;
  return {
    reviews: (agg?.reviews ?? []).map(toSnapshotReview),
    page: o.page,
    pages: Math.max(1, Math.ceil(total / pageSize)),
    total,
    page_size: pageSize,
    sort: `${o.sortField},${o.sortOrder}`,
    filtered: [o.rating, o.filterMedia, o.hasText, o.verified, o.topics, o.sourceStore].some((v) => v !== undefined),
  };
}
