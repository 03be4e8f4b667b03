import type { Redis } from "ioredis";

// Products whose storefront numbers changed without a moderation (a helpful vote changes a review's
// counts, and the review-change feed never sees it): the app proxy names them here and the shop's
// next back-sync run refreshes their metafields, so a reload shows the count with the vote in it.
// A set per shop in Redis: a product named twice before a run is refreshed once.

const keyOf = (prefix: string, shop: string) => `${prefix}:backsync:touched:${shop}`;

/** Names a product for the shop's next back-sync run. */
export async function markTouched(redis: Redis, prefix: string, shop: string, productId: string): Promise<void> {
  await redis.sadd(keyOf(prefix, shop), productId);
}

/**
 * The products named so far, and how to forget them once they were refreshed (not before: a failed run reads them
 * again).
 */
export async function touchedProducts(
  redis: Redis,
  prefix: string,
  shop: string,
): Promise<{ ids: string[]; done(): Promise<void> }> {
  const ids = await redis.smembers(keyOf(prefix, shop));
  return { ids, done: async () => void (ids.length && (await redis.srem(keyOf(prefix, shop), ...ids))) };
}
