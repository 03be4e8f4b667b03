import type { Redis } from "ioredis";
import { keyspaceOf, shopTag } from "../queues";
import type { LeaveOutReason } from "./product-review.mapper";

// What the app knows of one shop's Shop app syndication, in Redis (ids and reasons only: no name,
// text or e-mail of a reviewer):
// - the program: whether the shop's standard product review definition is on, or Shopify refused
//   it to the app (not granted), and when that was last asked; how far the first full pass got;
// - per review id, the metaobject it was written as (syndicated), or why it was left out.
// A published review is in exactly one of the two hashes; a review no longer published is in
// neither (it is not eligible, and its metaobject is deleted).

/** Why a published review is not a metaobject: the mapper's reasons, or Shopify refused the write. */
export type LeftOutReason = Exclude<LeaveOutReason, "not_published"> | "refused";

export interface ProgramState {
  state: "enabled" | "not-granted";
  /** When Shopify was last asked (ISO). */
  checkedAt: string;
  /** The first full pass over the published reviews: done, or the `skip` to go on from. */
  backfill: { done: true } | { done: false; skip: number };
}

export interface SyndicationCounts {
  syndicated: number;
  leftOut: Partial<Record<LeftOutReason, number>>;
}

export function createSyndicationState(redis: Redis, prefix: string, shopId: string) {
  // One batch writes both hashes at once (MULTI): on a cluster they share the shop's slot.
  const shop = shopTag(keyspaceOf(redis, prefix), shopId);
  const programKey = `${prefix}:shopapp:program:${shop}`;
  const syndicatedKey = `${prefix}:shopapp:syndicated:${shop}`;
  const leftOutKey = `${prefix}:shopapp:left-out:${shop}`;
  return {
    async program(): Promise<ProgramState | null> {
      const raw = await redis.get(programKey);
      return raw ? (JSON.parse(raw) as ProgramState) : null;
    },

    async saveProgram(p: ProgramState): Promise<void> {
      await redis.set(programKey, JSON.stringify(p));
    },

    /** The metaobject ids of these reviews, where they were written. */
    async metaobjectIds(reviewIds: readonly string[]): Promise<(string | null)[]> {
      if (reviewIds.length === 0) return [];
      return redis.hmget(syndicatedKey, ...reviewIds);
    },

    /** One round trip per batch: the outcome of each review of it. */
    async record(batch: {
      syndicated: [reviewId: string, metaobjectId: string][];
      leftOut: [reviewId: string, reason: LeftOutReason][];
      gone: string[];
    }): Promise<void> {
      const m = redis.multi();
      if (batch.syndicated.length) {
        m.hset(syndicatedKey, Object.fromEntries(batch.syndicated));
        m.hdel(leftOutKey, ...batch.syndicated.map(([id]) => id));
      }
      if (batch.leftOut.length) {
        m.hset(leftOutKey, Object.fromEntries(batch.leftOut));
        m.hdel(syndicatedKey, ...batch.leftOut.map(([id]) => id));
      }
      if (batch.gone.length) {
        m.hdel(syndicatedKey, ...batch.gone);
        m.hdel(leftOutKey, ...batch.gone);
      }
      await m.exec();
    },

    async counts(): Promise<SyndicationCounts> {
      const [syndicated, reasons] = await Promise.all([redis.hlen(syndicatedKey), redis.hvals(leftOutKey)]);
      const leftOut: SyndicationCounts["leftOut"] = {};
      for (const r of reasons as LeftOutReason[]) leftOut[r] = (leftOut[r] ?? 0) + 1;
      return { syndicated, leftOut };
    },

    /** The shop left the program or the app (uninstall): nothing of it is kept. */
    async forget(): Promise<void> {
      await redis.del(programKey);
      await redis.del(syndicatedKey);
      await redis.del(leftOutKey);
    },
  };
}

export type SyndicationState = ReturnType<typeof createSyndicationState>;
