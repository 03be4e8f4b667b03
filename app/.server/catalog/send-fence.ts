import type { JobServices } from "../jobs";
import type { CategorySource } from "../mapping";
import type { CatalogProduct } from "../reviews";
import { NEVER_ACCEPTED, type StagedProduct } from "./pending-changes";
import { withShopSendLock } from "./send-lock";
import { isSuperseded, stagedVersion, storedVersion } from "./superseded";

// The fence of the shop's catalog send lock. The lock lapses under a holder that Redis stopped
// answering (restarted, unreachable) or that stalled past WORKER_LOCK_MS, and its request may then
// land at the service after the next holder's newer one: the service would hold the older form
// while Redis and the mirror say the newer one was accepted. So:
// - a holder sends only while its lease holds, and a request once sent is not cut off (when its
//   answer comes, it has landed);
// - before it records what the service accepted, or takes the batch off `inflight`, it asks Redis
//   whether the lock is still its own (ConfirmHeld). If not, it records nothing, takes the lock again
//   (so no other request is in flight, and its own has landed), and stages the newer of what it sent
//   and what the mirror says was accepted since, for each product it sent, unless a change of it
//   waits or is in flight anyway: the next send, after its own, carries the newest state.

export class SendLockLostError extends Error {
  constructor(
    readonly shopId: string,
    readonly items: StagedProduct[],
  ) {
    super(`catalog send lock of shop ${shopId} lapsed around a request; its products are sent again`);
    this.name = "SendLockLostError";
  }
}

/** Throws SendLockLostError unless Redis confirms the lock is still this holder's. */
export async function fenced(confirm: () => Promise<boolean>, shopId: string, items: StagedProduct[]) {
  if (!(await confirm())) throw new SendLockLostError(shopId, items);
}

export type FenceDeps = Pick<JobServices, "queues" | "config" | "pending" | "mirror">;

/**
 * Once the lock is this caller's again: for each item sent, the newer of it and the mirror's
 * accepted form staged again (as not accepted, so that it is not skipped as unchanged), unless a
 * change of the product waits or is in flight. Returns how many were staged, and when the oldest
 * change now waiting was.
 */
export async function resendAfterLostLock(
  ctx: FenceDeps,
  shopId: string,
  items: StagedProduct[],
): Promise<{ staged: number; waitingSince: number | null }> {
  const { queues, config } = ctx;
  return withShopSendLock(
    queues.redis,
    config.REDIS_PREFIX,
    shopId,
    async () => {
      let staged = 0;
      let waitingSince: number | null = null;
      const rows = await ctx.mirror.acceptedRows(shopId, [...new Set(items.map((i) => i.sku))]);
      const accepted = new Map(rows.map((r) => [r.sku, r]));
      for (const sent of new Map(items.map((i) => [i.sku, i])).values()) {
        if (await ctx.pending.staged(shopId, sent.sku)) continue;
        const row = accepted.get(sent.sku);
        const held: StagedProduct | undefined = row && {
          productId: row.productId,
          sku: row.sku,
          hash: row.payloadHash!,
          product: JSON.parse(row.payload!) as CatalogProduct,
          sourceUpdatedAt: row.sourceUpdatedAt?.getTime(),
          version: row.sourceVersion ?? storedVersion(row.sourceUpdatedAt?.getTime()),
          categoriesFrom: (row.categoriesFrom ?? undefined) as CategorySource | undefined,
        };
        const newest = held && isSuperseded(sent, stagedVersion(held)) ? held : sent;
        await ctx.pending.rememberAccepted(shopId, new Map([[newest.productId, NEVER_ACCEPTED]]));
        const outcome = await ctx.pending.stageIfChanged(shopId, newest);
        if (outcome.kind === "staged") {
          staged++;
          waitingSince = waitingSince === null ? outcome.waitingSince : Math.min(waitingSince, outcome.waitingSince);
        }
      }
      return { staged, waitingSince };
    },
    { ttlMs: config.WORKER_LOCK_MS },
  );
}
