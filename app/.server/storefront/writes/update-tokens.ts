import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { open, seal } from "../../crypto";
import type { AttributeQuestion } from "./available-attributes";

// The service answers a submitted review with an `updateToken` that lets its holder add photos, a
// video and attributes. It never reaches the browser: it stays here (Redis, sealed, for a limited
// time) bound to that review and to the shopper who wrote it. A logged-in customer is recognised by
// the signed customer id; a guest by a random handle given to their browser for this review only.

export type ReviewOwner = { customerId: string } | { guestHandle: string };

interface Stored {
  updateToken: string;
  sku: string;
  owner: string;
  /** The attributes the shopper was asked (answers are checked against them). */
  attributes: AttributeQuestion[];
}

export interface KeptReview {
  updateToken: string;
  attributes: AttributeQuestion[];
}

const ownerKey = (o: ReviewOwner) => ("customerId" in o ? `customer:${o.customerId}` : `guest:${o.guestHandle}`);

export function newGuestHandle(): string {
  return randomBytes(18).toString("base64url");
}

export function createUpdateTokens(redis: Redis, prefix: string, key: Buffer, ttlMs: number) {
  const k = (shop: string, reviewId: string) => `${prefix}:writes:review:${shop}:${reviewId}`;
  return {
    async keep(
      shop: string,
      reviewId: string,
      value: { updateToken: string; sku: string; owner: ReviewOwner; attributes: AttributeQuestion[] },
    ): Promise<void> {
      const stored: Stored = {
        updateToken: value.updateToken,
        sku: value.sku,
        owner: ownerKey(value.owner),
        attributes: value.attributes,
      };
      await redis.set(k(shop, reviewId), seal(JSON.stringify(stored), key), "PX", ttlMs);
    },
    /** Counts photo presigns of a review (`add` 0 only reads); the count lives as long as the token. */
    async countPhoto(shop: string, reviewId: string, add: number): Promise<number> {
      const counter = `${k(shop, reviewId)}:photos`;
      const n = await redis.incrby(counter, add);
      if (add > 0 && n === add) await redis.pexpire(counter, ttlMs);
      return n;
    },
    /** The token when `owner` wrote that review of that product and it has not expired; null otherwise. */
    async take(shop: string, reviewId: string, sku: string, owner: ReviewOwner): Promise<KeptReview | null> {
      const sealed = await redis.get(k(shop, reviewId));
      if (!sealed) return null;
      const stored = JSON.parse(open(sealed, key)) as Stored;
      return stored.owner === ownerKey(owner) && stored.sku === sku
        ? { updateToken: stored.updateToken, attributes: stored.attributes }
        : null;
    },
  };
}
export type UpdateTokens = ReturnType<typeof createUpdateTokens>;
