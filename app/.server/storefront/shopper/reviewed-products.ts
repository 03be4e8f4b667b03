import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

// The products a logged-in customer has reviewed, as far as the app has seen: reviews they sent
// through the store, and products the service reported reviewed in their orders. The service's
// order status only speaks of one order at a time, and a review written on a product page without
// an order is in none of them: this memory is what keeps one buyer to one review per product
// across orders, the product page and the account page. Keyed by a hash of shop and customer id
// (no personal data), product ids only, kept two years from the last change.

const KEEP_S = 2 * 365 * 24 * 3600;

export interface ReviewedProducts {
  has(shop: string, customerId: string, productId: string): Promise<boolean>;
  all(shop: string, customerId: string): Promise<Set<string>>;
  add(shop: string, customerId: string, productIds: readonly string[]): Promise<void>;
  forget(shop: string, customerId: string): Promise<void>;
}

export function createReviewedProducts(redis: Redis, prefix: string): ReviewedProducts {
  const keyOf = (shop: string, customerId: string) => `${prefix}:reviewed:${createHash("sha256").update(`${shop}\n${customerId}`).digest("base64url").slice(0, 32)}`;
  return {
    has: async (shop, customerId, productId) => (await redis.sismember(keyOf(shop, customerId), productId)) === 1,
    all: async (shop, customerId) => new Set(await redis.smembers(keyOf(shop, customerId))),
    async add(shop, customerId, productIds) {
      if (!productIds.length) return;
      const key = keyOf(shop, customerId);
      await redis.multi().sadd(key, ...productIds).expire(key, KEEP_S).exec();
    },
    forget: async (shop, customerId) => void (await redis.del(keyOf(shop, customerId))),
  };
}
