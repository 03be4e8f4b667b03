import type { Shop } from "@prisma/client";
import type { Logger } from "pino";
import type { Redis } from "ioredis";
import type { Config } from "../config";
import type { ShopRepository } from "./shop.repository";
import {
  createReviewsClient,
  DEFAULT_TOKEN_TIMEOUT_MS,
  redisServicePause,
  redisTokenCache,
  type FetchLike,
  type ReviewsClient,
} from "../reviews";

// The reviews client of a connected shop, as every process makes it (workers, the admin pages, the
// CLI, the app proxy's reads and the Google feed): its account with the deployment's URLs as
// defaults, tokens and the 429 pause shared with every process through Redis. Throws
// ShopNotConnectedError for a shop without credentials.

export interface ShopReviewsDeps {
  config: Config;
  shops: ShopRepository;
  redis: Redis;
  log: Logger;
  fetch?: FetchLike;
  /** Per request, when the caller bounds it tighter than REVIEWS_TIMEOUT_MS (a shopper waits). */
  timeoutMs?: number;
}

export function shopReviewsClients(deps: ShopReviewsDeps): (domain: string, shop?: Shop) => Promise<ReviewsClient> {
  const { config } = deps;
  const tokenCache = redisTokenCache(deps.redis, config.REDIS_PREFIX);
  const defaults = {
    apiUrl: config.REVIEWS_API_URL,
    authUrl: config.REVIEWS_AUTH_URL,
    rateUrl: config.REVIEWS_RATE_URL,
  };
  return async (domain, shop) => {
    const account = await deps.shops.account(domain, defaults, shop);
    return createReviewsClient({
      account,
      tokenCache,
      logger: deps.log.child({ shop: domain }),
      fetch: deps.fetch,
      timeoutMs: deps.timeoutMs ?? config.REVIEWS_TIMEOUT_MS,
      tokenTimeoutMs: Math.min(config.REVIEWS_TIMEOUT_MS, DEFAULT_TOKEN_TIMEOUT_MS),
      pause: redisServicePause(deps.redis, config.REDIS_PREFIX, account),
    });
  };
}
