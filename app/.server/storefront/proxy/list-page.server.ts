import type { Logger } from "pino";
import { ReviewsError } from "../../reviews";
import { ShopNotConnectedError, ShopNotFoundError } from "../../shops/shop.repository";
import { cacheControl, NO_STORE } from "./cache-control";
import { errorFragment } from "./error-fragment";
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
  /** For the logs and the cache keys, e.g. `products/<sku>/questions`. */
  route: string;
  parse(search: URLSearchParams): { ok: true; query: Q } | { ok: false; message: string };
  /** The query in one normal form (the rendered page's cache key). */
  normal(query: Q): string;
  /** The service's whole list for this shop, as JSON to cache (the same for every page and language). */
  fetchList(shop: string): Promise<string>;
  render(listJson: string, query: Q): Promise<string>;
}

class ShopLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("shop limit reached");
  }
}

const HTML = "text/html; charset=utf-8";

export async function listPageResponse<Q extends { locale: StorefrontLocale }>(request: Request, deps: ListPageDeps, spec: (shop: string) => ListPage<Q> | string): Promise<Response> {
  let shop: string;
  try {
    ({ shop } = await verifyAppProxy(request, deps.authenticate));
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  const badRequest = (message: string) => new Response(`Bad request: ${message}`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE } });
  const list = spec(shop);
  if (typeof list === "string") return badRequest(list);
  const parsed = list.parse(new URL(request.url).searchParams);
  if (!parsed.ok) return badRequest(parsed.message);
  const { query } = parsed;
  const key = proxyCacheKey(deps.settings.redisPrefix, { shop, route: list.route, normalQuery: list.normal(query) });
  const listKey = proxyCacheKey(deps.settings.redisPrefix, { shop, route: `${list.route}#all`, normalQuery: "" });
  try {
    const [ip, cached] = await Promise.all([deps.limits.hit("ip", clientIp(request), deps.settings.ipLimit), deps.cache.get(key)]);
    if (!ip.ok) return failure(deps, query.locale, 429, ip.retryAfterSeconds);
    if (cached !== null) return page(cached, true, deps);
    const { value, hit } = await deps.cache.getOrCompute(key, async () => {
      const { value: all } = await deps.cache.getOrCompute(listKey, async () => {
        const limit = await deps.limits.hit("shop", shop, deps.settings.shopLimit);
        if (!limit.ok) throw new ShopLimited(limit.retryAfterSeconds);
        return list.fetchList(shop);
      });
      return list.render(all, query);
    });
    return page(value, hit, deps);
  } catch (error) {
    if (error instanceof ShopLimited) return failure(deps, query.locale, 429, error.retryAfterSeconds);
    const notConnected = error instanceof ShopNotConnectedError || error instanceof ShopNotFoundError;
    const passing = notConnected || (error instanceof ReviewsError && (error.kind === "retryable" || error.kind === "rate_limited"));
    deps.log[passing ? "warn" : "error"]({ shop, route: list.route, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message }, "app proxy: list page not served");
    return failure(deps, query.locale, passing ? 503 : 502);
  }
}

function page(html: string, hit: boolean, deps: ListPageDeps): Response {
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": HTML,
      "Cache-Control": cacheControl({ dependsOnCustomer: false, maxAgeMs: deps.settings.cacheMs }),
      "X-Reviews-Cache": hit ? "hit" : "miss",
    },
  });
}

async function failure(deps: ListPageDeps, locale: StorefrontLocale, status: number, retryAfterSeconds?: number): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": HTML, "Cache-Control": NO_STORE };
  if (retryAfterSeconds !== undefined) headers["Retry-After"] = String(retryAfterSeconds);
  const body = await deps.renderError(locale).catch(() => errorFragment(locale, status === 429 ? "busy" : "unavailable"));
  return new Response(body, { status, headers });
}
