// Public surface of the reviews service client: import from this folder (relative path, e.g.
// "../reviews"); the modules behind it are free to move.
export * from "./errors";
export * from "./admin.schemas";
export * from "./admin-lists.schemas";
export * from "./storefront.schemas";
export {
  ADMIN_AUTH_HEADER,
  ADMIN_AUTH_SCHEME,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TOKEN_TIMEOUT_MS,
  type CallOptions,
  type CreateReviewsClientOptions,
  type ReviewsAccount,
} from "./client-options";
export { RATING_LINK_ROUTE, type CreateOrderV1Result } from "./admin-api";
export {
  createReviewsClient,
  type ReviewsAdminApi,
  type ReviewsClient,
  type ReviewsStorefrontApi,
} from "./reviews-client";
export { ratePageUrl } from "./rate-page";
export { retryIdempotentOnce, type RetryOnceOptions } from "./retry";
export { memoryTokenCache, redisTokenCache, type CachedToken, type TokenCache } from "./token-cache";
export { memoryServicePause, redisServicePause, type ServicePause } from "./service-pause";
export { tokenCacheKey, tokenReuseMs } from "./token";
export type { FetchLike, ReviewsLogger } from "./http";
