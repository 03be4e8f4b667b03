import type { Logger } from "pino";
import { ReviewsError } from "../../reviews";
import { badRequest, failureStatus, fragmentFailure, fragmentPage } from "./fragment-answers";
import { clientIp, type LimitRule, type RateLimiter } from "./rate-limits";
import { proxyCacheKey, type ResponseCache } from "./response-cache";
import type { StorefrontLocale } from "./reviews-query";
import { ProxySignatureError, unauthorized, verifyAppProxy, type AppProxyAuthenticate } from "./verify-proxy.server";

// A page of a list the service answers whole (a product's questions, the store's reviews) as an
// HTML fragment through the app proxy. Order: signature (401) → input (400) → the shopper's limit
// (429) → the rendered page from the cache → the service's whole list from the cache, or one call
// that counts against the shop's limit → render. Nothing here depends on the customer.

export interface ListPageDeps {
  authenticate: AppProxyAuthenticate;
  renderError(locale: StorefrontLocale): Promise<string>;
  cache: ResponseCache;
  limits: RateLimiter;
  log: Logger;
  settings: { redisPrefix: string; cacheMs: number; ipLimit: LimitRule; shopLimit: LimitRule };
}

export interface ListPage<Q extends { locale: StorefrontLocale }> {
  parse(search: URLSearchParams): { ok: true; query: Q } | { ok: false; message: string };
  /** The service's list this page is cut from, e.g. `products/<sku>/questions` (logs, cache keys). */
  list(query: Q): string;
  /** The query in one normal form (the rendered page's cache key). */
  normal(query: Q): string;
  /** The service's whole list for this shop, as JSON to cache (the same for every page and language). */
  fetchList(shop: string, query: Q): Promise<string>;
  render(listJson: string, query: Q): Promise<string>;
}

class ShopLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("shop limit reached");
  }
}

/** `spec` is a message for a 400 when the path itself is not valid. */
export async function listPageResponse<Q extends { locale: StorefrontLocale }>(
  request: Request,
  deps: ListPageDeps,
  spec: ListPage<Q> | string,
): Promise<Response> {
  let shop: string;
  try {
    ({ shop } = await verifyAppProxy(request, deps.authenticate));
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  if (typeof spec === "string") return badRequest(spec);
  const parsed = spec.parse(new URL(request.url).searchParams);
  if (!parsed.ok) return badRequest(parsed.message);
  const { query } = parsed;
  const list = spec.list(query);
  const key = proxyCacheKey(deps.settings.redisPrefix, { shop, route: list, normalQuery: spec.normal(query) });
  const listKey = proxyCacheKey(deps.settings.redisPrefix, { shop, route: `${list}#all`, normalQuery: "" });
  try {
    const [ip, cached] = await Promise.all([
      deps.limits.hit("ip", clientIp(request), deps.settings.ipLimit),
      deps.cache.get(key),
    ]);
    if (!ip.ok) return fragmentFailure(deps, query.locale, "busy", 429, ip.retryAfterSeconds);
    if (cached !== null) return fragmentPage(cached, true, deps.settings.cacheMs);
    const { value, hit } = await deps.cache.getOrCompute(key, async () => {
      const { value: all } = await deps.cache.getOrCompute(listKey, async () => {
        const limit = await deps.limits.hit("shop", shop, deps.settings.shopLimit);
        if (!limit.ok) throw new ShopLimited(limit.retryAfterSeconds);
        return spec.fetchList(shop, query);
      });
      return spec.render(all, query);
    });
    return fragmentPage(value, hit, deps.settings.cacheMs);
  } catch (error) {
    if (error instanceof ShopLimited) return fragmentFailure(deps, query.locale, "busy", 429, error.retryAfterSeconds);
    const { status, retryAfterSeconds } = failureStatus(error);
    deps.log[status === 502 ? "error" : "warn"](
      { shop, list, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
      "app proxy: list page not served",
    );
    return fragmentFailure(deps, query.locale, "unavailable", status, retryAfterSeconds);
  }
}
