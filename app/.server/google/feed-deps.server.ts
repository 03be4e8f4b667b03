import { join } from "node:path";
import type { AppContext } from "../context.server";
import { createProductMirror } from "../catalog/product-mirror.repository";
import { createReviewsClient, DEFAULT_TOKEN_TIMEOUT_MS, redisServicePause, redisTokenCache } from "../reviews";
import { urlPolicy } from "../security/safe-url";
import { loadTranslations, type Translations } from "../storefront/liquid/translations";
import { EXTENSION_DIR } from "../storefront/proxy/proxy-deps.server";
import { proxyAuthenticate } from "../storefront/proxy/proxy-authenticate.server";
import { createRateLimiter } from "../storefront/proxy/rate-limits";
import type { GoogleFeedDeps } from "./feed-response.server";

// The feed's parts, made once per app context from its config, Redis and database.

const made = new WeakMap<AppContext, GoogleFeedDeps>();

export function googleFeedDeps(ctx: AppContext): GoogleFeedDeps {
  const existing = made.get(ctx);
  if (existing) return existing;
  const { config, queues, shops, log, db } = ctx;
  const redis = queues.redis;
  const tokenCache = redisTokenCache(redis, config.REDIS_PREFIX);
  const defaults = {
    apiUrl: config.REVIEWS_API_URL,
    authUrl: config.REVIEWS_AUTH_URL,
    rateUrl: config.REVIEWS_RATE_URL,
  };
  // The theme's own strings: the feed says "Anonymous" in the words the storefront uses.
  let translations: Translations | undefined;
  const t = () => (translations ??= loadTranslations(join(EXTENSION_DIR, "locales")));
  const deps: GoogleFeedDeps = {
    authenticate: proxyAuthenticate({
      apiKey: config.SHOPIFY_API_KEY,
      apiSecretKey: config.SHOPIFY_API_SECRET,
      appUrl: config.SHOPIFY_APP_URL,
      scopes: config.SCOPES,
    }),
    shops,
    async adminFor(shop) {
      const account = await shops.account(shop, defaults);
      return createReviewsClient({
        account,
        tokenCache,
        logger: log.child({ shop }),
        // No shopper waits here: Merchant Center's fetch may take the service's own time per page.
        timeoutMs: config.REVIEWS_TIMEOUT_MS,
        tokenTimeoutMs: Math.min(config.REVIEWS_TIMEOUT_MS, DEFAULT_TOKEN_TIMEOUT_MS),
        pause: redisServicePause(redis, config.REDIS_PREFIX, account),
      }).admin;
    },
    mirror: createProductMirror(db),
    redis,
    redisPrefix: config.REDIS_PREFIX,
    limiter: createRateLimiter(redis, config.REDIS_PREFIX),
    anonymousName: (locale) => t().translate(locale, "reviews.review.anonymous", {}),
    urlPolicy: urlPolicy(),
    log,
  };
  made.set(ctx, deps);
  return deps;
}
