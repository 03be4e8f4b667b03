import type { AppContext } from "../context.server";
import { keyFrom } from "../crypto";
import { parseSettings } from "../settings";
import { adminForShopOf } from "../shopify";
import { addressGatedAdmin } from "../shops";
import {
  createCustomerIdentities,
  createReviewedProducts,
  createReplayGuard,
  type ReviewWriteDeps,
  createUpdateTokens,
} from "../storefront";
import { noteShopperWrite } from "../activity";
import { createPurchaseMemory } from "../customers";
import { proxyDeps } from "./proxy-deps.server";
import { keepPendingReview } from "../pending-reviews";

// The app proxy's write side, made once per app context from its config, Redis and database (the
// read side's signature check, limiter and clients are shared).

const made = new WeakMap<AppContext, ReviewWriteDeps>();
const HOUR = 3_600_000;

export function reviewWriteDeps(ctx: AppContext): ReviewWriteDeps {
  const existing = made.get(ctx);
  if (existing) return existing;
  const { config, db, queues, shops, log } = ctx;
  const read = proxyDeps(ctx);
  const key = keyFrom(config.ENCRYPTION_KEY);
  // The same allowlist gate as the workers: a refused address parks Admin calls for the shop
  // (the shopper's write is kept or answered without them) until the probe passes.
  const { adminFor } = addressGatedAdmin({
    adminFor: adminForShopOf(config, { db, redis: queues.redis, log }).adminFor,
    queues,
    config,
    log,
  });
  const deps: ReviewWriteDeps = {
    authenticate: read.authenticate,
    replay: createReplayGuard(queues.redis, config.REDIS_PREFIX),
    limits: read.limits,
    log,
    reviewsFor: (shop) => read.reviewsFor(shop) as ReturnType<ReviewWriteDeps["reviewsFor"]>,
    customerIdentity: createCustomerIdentities({ adminFor, ttlMs: config.CUSTOMER_IDENTITY_CACHE_MS }),
    adminFor,
    settingsOf: async (shop) => parseSettings((await shops.get(shop)).settings),
    redis: queues.redis,
    noteActivity: async (shop) => noteShopperWrite({ queues, config, log }, (await shops.get(shop)).id),
    reviewed: createReviewedProducts(
      queues.redis,
      config.REDIS_PREFIX,
      async (shop) => (await shops.get(shop)).connectedAt?.toISOString() ?? "",
    ),
    purchases: createPurchaseMemory(queues.redis, config.REDIS_PREFIX),
    updateTokens: createUpdateTokens(queues.redis, config.REDIS_PREFIX, key, config.REVIEW_UPDATE_TOKEN_TTL_MS),
    keepPending: (value) => keepPendingReview({ db, queues, key }, value),
    settings: {
      ipLimit: { max: config.PROXY_WRITE_IP_LIMIT_PER_HOUR, windowMs: HOUR },
      customerLimit: { max: config.PROXY_WRITE_CUSTOMER_LIMIT_PER_HOUR, windowMs: HOUR },
      shopLimit: { max: config.PROXY_WRITE_SHOP_LIMIT_PER_MIN, windowMs: 60_000 },
      // Votes: a shopper reading many reviews may mark many; still bounded per address.
      voteLimit: { max: config.PROXY_IP_LIMIT_PER_MIN, windowMs: 60_000 },
      bodyMaxBytes: config.PROXY_WRITE_BODY_MAX_BYTES,
      redisPrefix: config.REDIS_PREFIX,
    },
  };
  made.set(ctx, deps);
  return deps;
}
