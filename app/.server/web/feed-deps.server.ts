import { join } from "node:path";
import type { AppContext } from "../context.server";
import { createProductMirror } from "../catalog";
import { shopReviewsClients } from "../shops";
import { urlPolicy } from "../security";
import { appProxyCheck, loadTranslations, type Translations, createRateLimiter } from "../storefront";
import type { GoogleFeedDeps } from "../google";
import { EXTENSION_DIR } from "./proxy-deps.server";

// The feed's parts, made once per app context from its config, Redis and database.

const made = new WeakMap<AppContext, GoogleFeedDeps>();

export function googleFeedDeps(ctx: AppContext): GoogleFeedDeps {
  const existing = made.get(ctx);
  if (existing) return existing;
  const { config, queues, shops, log, db } = ctx;
  const redis = queues.redis;
  // No shopper waits here: Merchant Center's fetch may take the service's own time per page.
  const reviewsFor = shopReviewsClients({ config, shops, redis, log });
  // The theme's own strings: the feed says "Anonymous" in the words the storefront uses.
  let translations: Translations | undefined;
  const t = () => (translations ??= loadTranslations(join(EXTENSION_DIR, "locales")));
  const deps: GoogleFeedDeps = {
    authenticate: appProxyCheck(config.SHOPIFY_API_SECRET),
    shops,
    adminFor: async (shop) => (await reviewsFor(shop)).admin,
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
