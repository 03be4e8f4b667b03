import { type JobServices, GiveUp, honouringServiceLimit, RetryLater, shopifyThrottleAsRetry } from "../jobs";
import { withRenewedLock } from "../queues";
import { parseSettings } from "../settings";
import { ShopNotConnectedError, canSyncShop } from "../shops";
import { createResendLedger, resendUnknownProducts } from "../resend";
import {
  NoOfflineSessionError,
  lazyAdminGraphql,
  ShopifyApiError,
  ShopifyThrottledError,
  isAddressRefused,
} from "../shopify";
import { runBackSync, type BackSyncResult } from "./backsync";
import { pollScheduleOf } from "../activity";

// One shop's back-sync as a job runs it (maintenance/"backsync" and "backsync-reconcile"): one run
// per shop at a time (a lock renewed while it runs), then the SKUs the service shows without their
// product resent. Failures by what to do:
// - the service down (retryable) or Shopify 5xx/network: thrown, the queue retries with backoff;
// - the service's 429: retry later, after its Retry-After (no attempt spent);
// - Shopify throttled past the client's own waits: retry later, when Shopify said the bucket can pay;
// - no session, revoked token, shop not connected or gone: give up, recorded, not retried;
// - a product deleted in Shopify: skipped and recorded inside the run (never fails it).

export type BackSyncJobDeps = Pick<
  JobServices,
  "db" | "queues" | "config" | "log" | "pending" | "adminFor" | "reviewsFor"
>;

async function connectedShop(ctx: Pick<JobServices, "db">, shopId: string) {
  const shop = await ctx.db.shop.findUnique({ where: { id: shopId } });
  if (!shop || !canSyncShop(shop)) return null;
  return shop;
}

/** Whether a run changed anything in the store or found anything to change: the shop stays active. */
export function runChanged(result: Pick<BackSyncResult, "feed" | "reconcile" | "refresh" | "shopData">): boolean {
  return (
    result.feed.changes > 0 ||
    (result.reconcile?.drifted ?? 0) > 0 ||
    result.refresh.written + result.refresh.cleared > 0 ||
    result.shopData === "written"
  );
}

/** Changes at the service the run saw (moderations in the feed, reviews submitted): the shop's rate. */
export function changesSeen(result: Pick<BackSyncResult, "feed" | "collected">): number {
  return result.feed.changes + (result.collected?.reviews ?? 0);
}

export async function backSyncShop(ctx: BackSyncJobDeps, shopId: string, opts: { reconcile: boolean }) {
  const schedule = pollScheduleOf(ctx.queues, ctx.config);
  const shop = await connectedShop(ctx, shopId);
  if (!shop) {
    await schedule.forget(shopId);
    return { skipped: "shop not connected or not installed" };
  }
  // The next poll counts from this one's start, when it read the feed: the period is between reads.
  const started = Date.now();
  try {
    const result = await lockedRun(ctx, shop, opts);
    await schedule.afterRun(shopId, { changed: runChanged(result), changes: changesSeen(result) }, started);
    return result;
  } catch (error) {
    // Given up (no session, token refused): polled again at the quiet pace, for when the merchant
    // is back. Retried: the schedule's lease brings the shop round again if the retries run out.
    if (error instanceof GiveUp) await schedule.afterRun(shopId, { changed: false, changes: 0 }, Date.now());
    throw error;
  }
}

async function lockedRun(
  ctx: BackSyncJobDeps,
  shop: NonNullable<Awaited<ReturnType<typeof connectedShop>>>,
  opts: { reconcile: boolean },
) {
  const shopId = shop.id;
  const lockKey = `${ctx.config.REDIS_PREFIX}:backsync:lock:${shopId}`;
  try {
    return await withRenewedLock(
      ctx.queues.redis,
      lockKey,
      () =>
        honouringServiceLimit(async () => {
          // A poll makes the Admin API client when it first needs it (most find nothing to write); the
          // daily reconciliation makes it at once, so every shop's token is refreshed at least daily
          // (an unused refresh token lapses after 90 days) and a lost session is found.
          const adminFor = () => ctx.adminFor(shop.domain);
          const [gql, reviews] = await Promise.all([
            opts.reconcile ? adminFor() : lazyAdminGraphql(shop.domain, adminFor),
            ctx.reviewsFor(shop.domain, shop),
          ]);
          const result = await runBackSync(
            {
              db: ctx.db,
              redis: ctx.queues.redis,
              prefix: ctx.config.REDIS_PREFIX,
              log: ctx.log,
              shop: { id: shop.id, domain: shop.domain },
              gql,
              reviews,
              settings: parseSettings(shop.settings),
            },
            { reconcile: opts.reconcile },
          );
          if (!result.unknownSkus.length) return result;
          const ledger = createResendLedger(ctx.queues.redis, ctx.config.REDIS_PREFIX);
          const resend = await resendUnknownProducts(
            { db: ctx.db, queues: ctx.queues, pending: ctx.pending, ledger, windowMs: ctx.config.RESEND_WINDOW_MS },
            { id: shop.id, domain: shop.domain },
            result.unknownSkus,
          );
          ctx.log.info({ shop: shop.domain, ...resend }, "products unknown to the service");
          return { ...result, resend };
        }),
      {
        ttlMs: ctx.config.WORKER_LOCK_MS,
        waitMs: ctx.config.WORKER_LOCK_MS,
        timeoutError: () => new Error(`back-sync lock of shop ${shopId} still held`),
      },
    );
  } catch (error) {
    if (error instanceof RetryLater || isAddressRefused(error)) throw error;
    if (error instanceof ShopifyThrottledError) throw shopifyThrottleAsRetry(error);
    if (
      error instanceof NoOfflineSessionError ||
      error instanceof ShopNotConnectedError ||
      (error instanceof ShopifyApiError && !error.retryable)
    ) {
      throw new GiveUp(`back-sync of ${shop.domain} stopped: ${(error as Error).message}`);
    }
    throw error;
  }
}
