import {
  enqueueFlush,
  enqueueFlushNextTurn,
  honouringServiceLimit,
  RetryLater,
  type FlushJob,
  type JobServices,
} from "../jobs";
import { MAX_BATCH_ITEMS, sendCatalog, type BatchOutcome, type SendBatch } from "./catalog-sender";
import { NEVER_ACCEPTED, type StagedProduct } from "./pending-changes";
import { withShopSendLock } from "./send-lock";
import { stagedVersion } from "./superseded";
import type { ReviewsClient } from "../reviews";
import { fenced, resendAfterLostLock, SendLockLostError, type FenceDeps } from "./send-fence";
import { syncShop, type SyncShopDeps } from "../shops";

// The catalog queue: one "flush" job per shop at a time (jobs/enqueue.ts: at most one running and
// one waiting per shop), which drains the shop's coalesced changes in batches of up to 200.

/**
 * The delay of a shop's next flush: a window of quiet (each change pushes the flush back by the
 * window), but never past `maxWaitMs` after the oldest waiting change, so a steady stream of
 * changes still goes out every few seconds.
 */
export function flushDelay(now: number, waitingSince: number, windowMs: number, maxWaitMs: number): number {
  return Math.max(0, Math.min(windowMs, waitingSince + maxWaitMs - now));
}

/** Asks for a flush of the shop's pending changes after `delayMs`; a waiting flush is rescheduled. */
export async function scheduleFlush(
  ctx: Pick<JobServices, "queues">,
  shop: { id: string; domain: string },
  delayMs: number,
) {
  await enqueueFlush(ctx.queues, shop, delayMs);
}

/** After a change was staged: the flush that will carry it, debounced within the bounds above. */
export async function scheduleFlushAfterStage(
  ctx: Pick<JobServices, "queues" | "config">,
  shop: { id: string; domain: string },
  waitingSince: number,
) {
  const { CATALOG_FLUSH_WINDOW_MS: windowMs, CATALOG_FLUSH_MAX_WAIT_MS: maxWaitMs } = ctx.config;
  await scheduleFlush(ctx, shop, flushDelay(Date.now(), waitingSince, windowMs, maxWaitMs));
}

/** Records what the service said about one batch: accepted hashes, refusals with their reason. */
export function recordOutcome(ctx: Pick<JobServices, "mirror" | "pending">, shopId: string) {
  return async (o: BatchOutcome) => {
    if (o.accepted.length) {
      await ctx.mirror.recordAccepted(shopId, o.accepted);
      await ctx.pending.rememberAccepted(shopId, new Map(o.accepted.map((i) => [i.productId, i.hash])));
      await ctx.pending.rememberNewest(
        shopId,
        new Map(
          o.accepted.flatMap((i) => {
            const version = stagedVersion(i);
            return version === undefined ? [] : [[i.productId, version] as const];
          }),
        ),
      );
    }
    if (o.rejected.length) {
      await ctx.mirror.recordRejected(shopId, o.rejected);
      // A refused product has no accepted payload any more (the mirror reads it as not synced).
      await ctx.pending.rememberAccepted(shopId, new Map(o.rejected.map((r) => [r.item.productId, NEVER_ACCEPTED])));
    }
  };
}

/**
 * Runs `work` holding the shop's send lock: one catalog request in flight per shop; a killed
 * holder's lock lapses with its job's. `send` sends only while the lease holds; `fence` is called
 * before what a request did is recorded (send-fence.ts). A lock lost around a request stages the
 * newer of what it sent and what was accepted since, once the lock is this job's again, and throws
 * (the job retries).
 */
export async function underSendLock<T>(
  ctx: FenceDeps & Pick<JobServices, "config" | "queues">,
  shop: { id: string; domain: string },
  client: ReviewsClient,
  work: (send: SendBatch, fence: (items: StagedProduct[]) => Promise<void>) => Promise<T>,
): Promise<T> {
  try {
    return await withShopSendLock(
      ctx.queues.redis,
      ctx.config.REDIS_PREFIX,
      shop.id,
      (lease, confirm) =>
        work(
          async (products) => {
            // Not sent at all: nothing of it can land late.
            if (lease.aborted) throw new SendLockLostError(shop.id, []);
            return client.admin.sendCatalogBatch(products);
          },
          (items) => fenced(confirm, shop.id, items),
        ),
      { ttlMs: ctx.config.WORKER_LOCK_MS },
    );
  } catch (error) {
    if (!(error instanceof SendLockLostError) || !error.items.length) throw error;
    const { waitingSince } = await resendAfterLostLock(ctx, shop.id, error.items);
    if (waitingSince !== null) await scheduleFlushAfterStage(ctx, shop, waitingSince);
    throw error;
  }
}

// Batches one flush job sends before it yields to other shops' jobs (and re-queues itself).
export const BATCHES_PER_TURN = 25;

/**
 * When the shop's waiting changes are due: after a quiet window since the newest, and never later
 * than the max wait after the oldest. Null: nothing waits.
 *
 * A full batch waits too. Sending it at once would not save a request: the products in it are the
 * ones that change, and their next changes, which would have merged into it while it waited, then
 * need a batch of their own. Held until its oldest change is due, each batch carries more of a
 * storm's changes, and each change still leaves within the max wait (the oldest go first).
 */
export function flushDueAt(
  t: { waiting: number; waitingSince: number | null; lastStagedAt: number | null },
  windowMs: number,
  maxWaitMs: number,
): number | null {
  if (t.waiting === 0) return null;
  if (t.waitingSince === null || t.lastStagedAt === null) return 0;
  return Math.min(t.lastStagedAt + windowMs, t.waitingSince + maxWaitMs);
}

/**
 * Sends the shop's due changes, oldest first, in batches of up to 200. A flush that starts before
 * its changes are due (it was triggered while another flush ran, say) puts itself back until they
 * are, so a steady stream of changes leaves in few, full batches rather than one small batch per
 * round-trip; what a batch leaves behind is due when its own oldest change is.
 */
export type FlushDeps = SyncShopDeps & Pick<JobServices, "config" | "queues" | "pending" | "mirror" | "reviewsFor">;

export async function flushShopCatalog(
  ctx: FlushDeps,
  data: FlushJob,
  // False outside a worker: a flush that starts early then answers at once instead of waiting.
  canWait: boolean,
) {
  const shop = await syncShop(ctx, data.shop);
  // Uninstalled or disconnected: the staged changes wait (shop/redact removes them).
  if (!shop) return { skipped: true };
  const { CATALOG_FLUSH_WINDOW_MS: windowMs, CATALOG_FLUSH_MAX_WAIT_MS: maxWaitMs } = ctx.config;
  const client = await ctx.reviewsFor(shop.domain);
  let requests = 0;
  for (let turn = 0; turn < BATCHES_PER_TURN; turn++) {
    const timing = await ctx.pending.timing(shop.id);
    if (!timing.inflight) {
      const due = flushDueAt(timing, windowMs, maxWaitMs);
      if (due === null) return { requests };
      if (due > Date.now()) {
        if (!canWait) return { requests, early: true };
        throw new RetryLater("catalog changes not due yet", due - Date.now());
      }
    }
    // Taken under the lock: a flush that waited for it sends what Redis holds now, never a batch it
    // read before another flush sent newer forms of its products.
    const sent = await underSendLock(ctx, shop, client, async (send, fence) => {
      const items = await ctx.pending.take(shop.id, MAX_BATCH_ITEMS);
      if (!items.length) return null;
      // Not checked against the newest version here: a waiting change absorbs same-state deliveries
      // newer than its own stamp. A full sync that sent a newer snapshot meanwhile is followed by the
      // webhook of that newer change, which stages it after this one.
      const record = recordOutcome(ctx, shop.id);
      const result = await honouringServiceLimit(() =>
        sendCatalog(items, send, async (o) => {
          await fence([...o.accepted, ...o.rejected.map((r) => r.item)]);
          await record(o);
        }),
      );
      await fence(items);
      await ctx.pending.ack(shop.id);
      return result;
    });
    if (!sent) return { requests };
    requests += sent.requests;
  }
  await enqueueFlushNextTurn(ctx.queues, shop);
  return { requests };
}
