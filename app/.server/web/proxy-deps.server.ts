import { join } from "node:path";
import type { AppContext } from "../context.server";
import type { ReviewsStorefrontApi } from "../reviews";
import { shopReviewsClients } from "../shops";
import {
  appProxyCheck,
  createThemeRenderer,
  type ThemeRenderer,
  createRateLimiter,
  createResponseCache,
  type ReviewsPageDeps,
  type QuestionsReadDeps,
  type StoreReviewsDeps,
  type OrderReviewStatusPageDeps,
  type RateCheckDeps,
} from "../storefront";
import { createProxyPathStore } from "../theme";

// The app proxy's parts, made once per app context (tests swap contexts) from its config, Redis
// and database: the routes stay thin adapters.

export const EXTENSION_DIR = join(process.cwd(), "extensions", "reviews-theme");
/** The service's own default; the block script sends the merchant's "reviews per page". */
export const DEFAULT_PAGE_SIZE = 5;
/** A shopper waits for the service at most this long, whatever REVIEWS_TIMEOUT_MS says. */
export const PROXY_CLIENT_TIMEOUT_MAX_MS = 10_000;
const PROXY_REDIS_WAIT_MS = 1_000;

/**
 * The read side: reviews, questions, store reviews and order review status pages share the signature
 * check, cache and limits.
 */
export type ProxyReadDeps = Omit<ReviewsPageDeps, "reviewsFor"> &
  Pick<QuestionsReadDeps, "renderQuestions"> &
  Pick<StoreReviewsDeps, "renderStoreReviews"> &
  Pick<OrderReviewStatusPageDeps, "renderOrders"> &
  Pick<RateCheckDeps, "renderReviewed"> & { reviewsFor(shop: string): Promise<ReviewsStorefrontApi> };

const made = new WeakMap<AppContext, ProxyReadDeps>();

export function proxyDeps(ctx: AppContext): ProxyReadDeps {
  const existing = made.get(ctx);
  if (existing) return existing;
  const { config, queues, shops, log } = ctx;
  const redis = queues.redis;
  const clients = shopReviewsClients({
    config,
    shops,
    redis,
    log,
    timeoutMs: Math.min(config.REVIEWS_TIMEOUT_MS, PROXY_CLIENT_TIMEOUT_MAX_MS),
  });
  // Made on first use (it reads the extension's locales). Fragments carry no asset of their own:
  // the page's block already loaded the stylesheet and script.
  let renderer: ThemeRenderer | undefined;
  const theme = () => (renderer ??= createThemeRenderer({ extensionDir: EXTENSION_DIR, assetBaseUrl: "" }));
  const minute = 60_000;
  const signature = appProxyCheck(config.SHOPIFY_API_SECRET);
  const deps: ProxyReadDeps = {
    // Every proxy request is checked here first: the first ones after a boot wait (at most a second)
    // for the Redis connection still opening, which fails commands fast instead of queueing them.
    // They were answered 502 before; a Redis that stays away still gets the routes' own answers.
    authenticate: async (request) => {
      await queues.ready(PROXY_REDIS_WAIT_MS).catch(() => undefined);
      return signature(request);
    },
    reviewsFor: async (shop) => (await clients(shop)).storefront,
    render: (vars, locale) => theme().renderSnippet("reviews-page", vars as unknown as Record<string, unknown>, locale),
    renderQuestions: (vars, locale) =>
      theme().renderSnippet("questions-page", vars as unknown as Record<string, unknown>, locale),
    renderStoreReviews: (vars, locale) =>
      theme().renderSnippet("store-reviews-page", vars as unknown as Record<string, unknown>, locale),
    renderOrders: (vars, locale) =>
      theme().renderSnippet("order-reviews-page", vars as unknown as Record<string, unknown>, locale),
    renderError: (locale) => theme().renderSnippet("reviews-error", {}, locale),
    renderReviewed: (vars, locale) =>
      theme().renderSnippet("rating-modal-reviewed", vars as unknown as Record<string, unknown>, locale),
    cache: createResponseCache(redis, config.PROXY_CACHE_MS),
    limits: createRateLimiter(redis, config.REDIS_PREFIX),
    proxyPaths: createProxyPathStore(redis, config.REDIS_PREFIX),
    log,
    settings: {
      redisPrefix: config.REDIS_PREFIX,
      cacheMs: config.PROXY_CACHE_MS,
      ipLimit: { max: config.PROXY_IP_LIMIT_PER_MIN, windowMs: minute },
      shopLimit: { max: config.PROXY_SHOP_LIMIT_PER_MIN, windowMs: minute },
      defaultPageSize: DEFAULT_PAGE_SIZE,
    },
  };
  made.set(ctx, deps);
  return deps;
}
