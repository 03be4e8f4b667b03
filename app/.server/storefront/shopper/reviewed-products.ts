import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

// The products a logged-in customer has reviewed, as far as the app has seen: reviews they sent
// through the store, and products the service reported reviewed in their orders. The service's
// order status only speaks of one order at a time, and a review written on a product page without
// an order is in none of them: this memory is what keeps one buyer to one review per product
// across orders, the product page and the account page. Keyed by a hash of shop and customer id
// (no personal data), product ids only, kept two years from the last change. The memory is of
// one connection to the service: connected again (another account, a reset service, a fresh
// local emulator), the service holds none of those reviews, and the memory starts empty.

const KEEP_S = 2 * 365 * 24 * 3600;

export interface ReviewedProducts {
  has(shop: string, customerId: string, productId: string): Promise<boolean>;
  all(shop: string, customerId: string): Promise<Set<string>>;
  add(shop: string, customerId: string, productIds: readonly string[]): Promise<void>;
  forget(shop: string, customerId: string): Promise<void>;
}

/** The set's member naming the connection it belongs to (product ids never start with "@"). */
const connectionMember = (connection: string) => `@${connection}`;

/** `connectionOf`: what names the shop's current connection to the service (when it was made). */
export function createReviewedProducts(
  redis: Redis,
  prefix: string,
  connectionOf: (shop: string) => Promise<string> = async () => "",
): ReviewedProducts {
  const keyOf = (shop: string, customerId: string) =>
    `${prefix}:reviewed:${createHash("sha256").update(`${shop}\n${customerId}`).digest("base64url").slice(0, 32)}`;
  /** The products of this connection, and whether the set held another connection's. */
  const read = async (shop: string, customerId: string) => {
    const [members, connection] = await Promise.all([redis.smembers(keyOf(shop, customerId)), connectionOf(shop)]);
    const current = members.includes(connectionMember(connection));
    return {
      products: new Set(current ? members.filter((m) => !m.startsWith("@")) : []),
      stale: members.length > 0 && !current,
      connection,
    };
  };
  return {
    has: async (shop, customerId, productId) => (await read(shop, customerId)).products.has(productId),
    all: async (shop, customerId) => (await read(shop, customerId)).products,
    async add(shop, customerId, productIds) {
      if (!productIds.length) return;
      const key = keyOf(shop, customerId);
      const { stale, connection } = await read(shop, customerId);
      const tx = redis.multi();
      if (stale) tx.del(key);
      await tx
        .sadd(key, connectionMember(connection), ...productIds)
        .expire(key, KEEP_S)
        .exec();
    },
    forget: async (shop, customerId) => void (await redis.del(keyOf(shop, customerId))),
  };
}
