import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

// What a logged-in customer bought, remembered for a few minutes: product id → the service's ids
// of their orders holding it (newest first, cancelled ones left out). A review through the proxy
// proves a purchase from it with one Redis read for the product in question, instead of reading up
// to five pages of the buyer's orders from Shopify on every submission. Keyed by a hash of shop
// and customer id (no personal data); ids only.
//
// A new order of the customer (orders/create, orders/cancelled) forgets it, so a shopper who has
// just bought can review at once. A forget bumps a generation kept in the same hash: a reading of
// Shopify's orders that began before the forget is not remembered after it (it may predate the
// order).

/** How long a customer's purchases are remembered after they were read from Shopify. */
export const PURCHASES_KEEP_MS = 5 * 60_000;

const FILLED = "@";
const GENERATION = "@gen";
/**
 * The field of orders whose lines were not all read (a page of orders carries each order's first
 * lines): they may hold any product, so every product's answer includes them, after its own.
 */
export const ANY_PRODUCT = "*";

/** A remembered answer, or the generation to remember a fresh reading under. */
export type RememberedPurchase = { kind: "known"; orderIds: string[] } | { kind: "unknown"; generation: string };

export interface PurchaseMemory {
  /** The customer's orders holding the product, when their purchases are remembered: one read. */
  ordersWith(shop: string, customerId: string, productId: string): Promise<RememberedPurchase>;
  /** Remembers a reading of Shopify's orders, unless the customer's purchases were forgotten since. */
  remember(shop: string, customerId: string, generation: string, byProduct: Map<string, string[]>): Promise<boolean>;
  /** Forgets them (a new or cancelled order); a reading under way is not remembered after this. */
  forget(shop: string, customerId: string): Promise<void>;
}

// KEYS[1] the hash; ARGV[1] the generation read; ARGV[2] ms to keep; then field, value pairs.
const REMEMBER = `
local generation = redis.call('HGET', KEYS[1], '${GENERATION}') or '0'
if generation ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], '${GENERATION}', generation, '${FILLED}', '1', unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

// KEYS[1] the hash; ARGV[1] ms to keep the generation (a reading outlives it by no means longer).
const FORGET = `
local generation = tonumber(redis.call('HGET', KEYS[1], '${GENERATION}') or '0') + 1
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], '${GENERATION}', generation)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return generation
`;

export function createPurchaseMemory(redis: Redis, prefix: string, keepMs = PURCHASES_KEEP_MS): PurchaseMemory {
  const keyOf = (shop: string, customerId: string) =>
    `${prefix}:purchases:${createHash("sha256").update(`${shop}\n${customerId}`).digest("base64url").slice(0, 32)}`;
  return {
    async ordersWith(shop, customerId, productId) {
      const [filled, generation, orders, partial] = await redis.hmget(
        keyOf(shop, customerId),
        FILLED,
        GENERATION,
        productId,
        ANY_PRODUCT,
      );
      if (!filled) return { kind: "unknown", generation: generation ?? "0" };
      const ids = [orders, partial].flatMap((field) => (field ? (JSON.parse(field) as string[]) : []));
      return { kind: "known", orderIds: [...new Set(ids)] };
    },
    async remember(shop, customerId, generation, byProduct) {
      const fields = [...byProduct].flatMap(([productId, ids]) => [productId, JSON.stringify(ids)]);
      const done = await redis.eval(REMEMBER, 1, keyOf(shop, customerId), generation, String(keepMs), ...fields);
      return done === 1;
    },
    async forget(shop, customerId) {
      await redis.eval(FORGET, 1, keyOf(shop, customerId), String(keepMs));
    },
  };
}
