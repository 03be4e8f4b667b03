import type { Db } from "../db";
import { CLEARED_DIGEST } from "./rating-metafields";
import { SEEN_MAX, type FeedMemory } from "./review-feed";

// The back-sync's memory per shop (database): the review feed's (cursor and seen reviews), what
// was last written per product, and the Flow triggers already sent. shop/redact deletes all of it (forgetShop).

const EPOCH = new Date(0).toISOString();

/**
 * The stored feed memory. A row written before the feed remembered (id, status) pairs has only a
 * cursor: a real one still ends reads by time; the epoch (a service that sent no timestamp) or none
 * means a first read, so the history is not replayed.
 */
export function feedMemoryOf(row: { cursor: string | null; feedSeen: string | null } | null): FeedMemory | null {
  if (!row) return null;
  let seen: unknown = null;
  try {
    seen = row.feedSeen === null ? null : JSON.parse(row.feedSeen);
  } catch {
    seen = null;
  }
  if (Array.isArray(seen) && seen.every((k) => typeof k === "string"))
    return { cursor: row.cursor, seen: seen as string[] };
  if (row.cursor && row.cursor !== EPOCH) return { cursor: row.cursor, seen: [] };
  return null;
}

export type DigestStatus = "written" | "cleared" | "missing" | "refused";

export interface ProductDigest {
  productId: string;
  digest: string;
  count: number;
  average: number;
  status: DigestStatus;
}

// SQLite allows a few hundred bound parameters per statement in some builds: read in slices.
const IN_SLICE = 500;

export function createBackSyncState(db: Db) {
  return {
    async get(shopId: string) {
      return db.backSyncState.findUnique({ where: { shopId } });
    },

    async update(
      shopId: string,
      data: {
        cursor?: string | null;
        feedSeen?: string | null;
        shopDataDigest?: string | null;
        definitionsEnabledAt?: Date;
        reconciledAt?: Date;
        collectedCursor?: string | null;
      },
    ) {
      await db.backSyncState.upsert({ where: { shopId }, create: { shopId, ...data }, update: data });
    },

    /** The review feed's memory (review-feed.ts); null when the feed was never read. */
    async feedMemory(shopId: string): Promise<FeedMemory | null> {
      const row = await db.backSyncState.findUnique({ where: { shopId }, select: { cursor: true, feedSeen: true } });
      return feedMemoryOf(row);
    },

    /** Writes the feed's memory unless `stored` (the row read at the run's start) holds it already. */
    async saveFeedMemory(
      shopId: string,
      memory: FeedMemory,
      stored?: { cursor: string | null; feedSeen: string | null } | null,
    ): Promise<void> {
      const feedSeen = JSON.stringify(memory.seen.slice(0, SEEN_MAX));
      if (stored && stored.cursor === memory.cursor && stored.feedSeen === feedSeen) return;
      await this.update(shopId, { cursor: memory.cursor, feedSeen });
    },

    async digests(shopId: string, productIds: readonly string[]): Promise<Map<string, ProductDigest>> {
      const out = new Map<string, ProductDigest>();
      for (let i = 0; i < productIds.length; i += IN_SLICE) {
        const rows = await db.ratingDigest.findMany({
          where: { shopId, productId: { in: productIds.slice(i, i + IN_SLICE) } },
        });
        for (const r of rows)
          out.set(r.productId, {
            productId: r.productId,
            digest: r.digest,
            count: r.count,
            average: r.average,
            status: r.status as DigestStatus,
          });
      }
      return out;
    },

    /** Products whose metafields hold ratings (count > 0), for the reconciliation. */
    async written(shopId: string): Promise<ProductDigest[]> {
      const rows = await db.ratingDigest.findMany({ where: { shopId, status: "written" } });
      return rows.map((r) => ({
        productId: r.productId,
        digest: r.digest,
        count: r.count,
        average: r.average,
        status: "written" as const,
      }));
    },

    async record(shopId: string, rows: ProductDigest[]): Promise<void> {
      if (rows.length === 0) return;
      await db.$transaction(
        rows.map((r) =>
          db.ratingDigest.upsert({
            where: { shopId_productId: { shopId, productId: r.productId } },
            create: {
              shopId,
              productId: r.productId,
              digest: r.digest,
              count: r.count,
              average: r.average,
              status: r.status,
            },
            update: { digest: r.digest, count: r.count, average: r.average, status: r.status, writtenAt: new Date() },
          }),
        ),
      );
    },

    async recordCleared(shopId: string, productIds: string[]): Promise<void> {
      await this.record(
        shopId,
        productIds.map((productId) => ({ productId, digest: CLEARED_DIGEST, count: 0, average: 0, status: "cleared" })),
      );
    },

    /** Claims a Flow trigger for a review: false when it was claimed before (sent, or being sent). */
    async claimTrigger(shopId: string, handle: string, reviewId: string): Promise<boolean> {
      try {
        await db.flowTriggerSent.create({ data: { shopId, handle, reviewId } });
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === "P2002") return false;
        throw error;
      }
    },

    /** Gives a claim back when the call failed, so the retry sends it. */
    async releaseTrigger(shopId: string, handle: string, reviewId: string): Promise<void> {
      await db.flowTriggerSent.deleteMany({ where: { shopId, handle, reviewId } });
    },

    /**
     * app/uninstalled: Shopify removes what the app owned with the installation (at least the
     * app-data metafield), so what we remember having written is no longer true. A reinstall then
     * starts over: definitions, a full reconciliation, every product written again. Flow claims
     * and products known to be gone from Shopify stay, so nothing is announced or tried twice.
     */
    async forgetWrites(shopId: string): Promise<void> {
      // Products gone from Shopify stay gone: they are not tried again.
      await db.ratingDigest.deleteMany({ where: { shopId, status: { not: "missing" } } });
      await db.backSyncState.deleteMany({ where: { shopId } });
    },

    /** shop/redact: the cursor, the digests and the trigger records of the shop. */
    async forgetShop(shopId: string): Promise<{ states: number; digests: number; triggers: number }> {
      const states = (await db.backSyncState.deleteMany({ where: { shopId } })).count;
      const digests = (await db.ratingDigest.deleteMany({ where: { shopId } })).count;
      const triggers = (await db.flowTriggerSent.deleteMany({ where: { shopId } })).count;
      return { states, digests, triggers };
    },
  };
}

export type BackSyncState = ReturnType<typeof createBackSyncState>;
