import { DelayedError, type Job } from "bullmq";
import { z } from "zod";
import { NoOfflineSessionError, type WorkerContext } from "../context";
import { PermanentJobError } from "./errors";
import { honouringRetryAfter } from "./service-errors";
import { runBackSync } from "../../app/.server/backsync/backsync";
import { BACKSYNC_RECONCILE_TICK, BACKSYNC_TICK, requestBackSync } from "../../app/.server/backsync/schedule";
import { QueueName } from "../../app/.server/queues/names";
import { withRenewedLock } from "../../app/.server/queues/renewed-lock";
import { parseSettings } from "../../app/.server/shops/settings";
import { ShopNotConnectedError } from "../../app/.server/shops/shop.repository";
import { keysetPages } from "../../app/.server/db/batches";
import { createResendLedger } from "../../app/.server/resend/resend-ledger";
import { resendUnknownProducts } from "../../app/.server/resend/unknown-products";
import { ShopifyApiError, ShopifyThrottledError, isAddressRefused } from "../../app/.server/shopify/errors";

// Ratings back into Shopify, as worker jobs on the maintenance queue (see app/.server/backsync/):
// `backsync` (the feed) and `backsync-reconcile` (feed + full reconciliation) per shop, and two
// scheduler ticks that ask for them for every connected shop. Failures by what to do:
// - the service down (retryable) or Shopify 5xx/network: thrown, the queue retries with backoff;
// - the service's 429: the job waits its Retry-After (no attempt spent);
// - Shopify throttled past the client's own waits: the job waits what Shopify said the bucket needs;
// - no session, revoked token, shop not connected or gone: the job ends, recorded, not retried;
// - a product deleted in Shopify: skipped and recorded inside the run (never fails it).

const jobData = z.object({ shopId: z.string().min(1) });

async function connectedShop(ctx: WorkerContext, shopId: string) {
  const shop = await ctx.db.shop.findUnique({ where: { id: shopId } });
  if (!shop || shop.installState !== "installed" || !shop.customerKey || !shop.clientSecretEncrypted) return null;
  return shop;
}

export function backSyncJob(opts: { reconcile: boolean }) {
  return async (job: Job, ctx: WorkerContext, token?: string) => {
    const { shopId } = jobData.parse(job.data);
    const shop = await connectedShop(ctx, shopId);
    if (!shop) return { skipped: "shop not connected or not installed" };
    const lockKey = `${ctx.config.REDIS_PREFIX}:backsync:lock:${shopId}`;
    try {
      return await withRenewedLock(
        ctx.queues.redis,
        lockKey,
        () =>
          honouringRetryAfter(job, token, async () => {
            const [gql, reviews] = await Promise.all([ctx.adminFor(shop.domain), ctx.reviewsFor(shop.domain)]);
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
      if (error instanceof DelayedError || isAddressRefused(error)) throw error;
      if (error instanceof ShopifyThrottledError && token) {
        await job.moveToDelayed(Date.now() + error.retryAfterMs, token);
        throw new DelayedError(`throttled by Shopify for ${error.retryAfterMs} ms`);
      }
      if (
        error instanceof NoOfflineSessionError ||
        error instanceof ShopNotConnectedError ||
        (error instanceof ShopifyApiError && !error.retryable)
      ) {
        throw new PermanentJobError(`back-sync of ${shop.domain} stopped: ${(error as Error).message}`);
      }
      throw error;
    }
  };
}

/**
 * Shops a back-sync runs for: connected to the service, installed, with an offline session. Read a
 * page of shops at a time, each page's sessions in one query: no statement grows with the number
 * of shops (one list of every shop's domain broke SQLite's parameter limit from 997 shops on).
 */
export async function backSyncShops(ctx: Pick<WorkerContext, "db">): Promise<string[]> {
  const out: string[] = [];
  const pages = keysetPages((after, take) =>
    ctx.db.shop.findMany({
      where: {
        installState: "installed",
        customerKey: { not: null },
        clientSecretEncrypted: { not: null },
        ...(after ? { id: { gt: after } } : {}),
      },
      select: { id: true, domain: true },
      orderBy: { id: "asc" },
      take,
    }),
  );
  for await (const shops of pages) {
    const sessions = await ctx.db.session.findMany({
      where: { isOnline: false, shop: { in: shops.map((s) => s.domain) } },
      select: { shop: true },
    });
    const withSession = new Set(sessions.map((s) => s.shop));
    for (const s of shops) if (withSession.has(s.domain)) out.push(s.id);
  }
  return out;
}

/** Runs asked for at once (each a round trip to Redis): thousands of shops in seconds, not minutes. */
const REQUESTS_AT_ONCE = 50;

async function requestForEach(
  ctx: Pick<WorkerContext, "queues">,
  ids: readonly string[],
  opts: { reconcile?: boolean } = {},
) {
  for (let i = 0; i < ids.length; i += REQUESTS_AT_ONCE) {
    await Promise.all(ids.slice(i, i + REQUESTS_AT_ONCE).map((id) => requestBackSync(ctx.queues, id, opts)));
  }
}

export function backSyncTick(opts: { reconcile: boolean }) {
  return async (_job: Job, ctx: Pick<WorkerContext, "db" | "queues">) => {
    const ids = await backSyncShops(ctx);
    await requestForEach(ctx, ids, { reconcile: opts.reconcile });
    return { shops: ids.length };
  };
}

/**
 * The two schedulers (idempotent: every worker upserts the same ones), and a run asked for every
 * connected shop at once, so a worker start brings each up to date (definitions included; runs
 * already waiting absorb these). The daily reconciliation's first run is one interval later
 * (connect runs its own). Off when BACKSYNC_INTERVAL_MS is 0 (the test suite's default).
 */
export async function scheduleBackSync(ctx: Pick<WorkerContext, "queues" | "config" | "db">) {
  const queue = ctx.queues.get(QueueName.maintenance);
  const every = ctx.config.BACKSYNC_INTERVAL_MS;
  if (every <= 0) {
    await queue.removeJobScheduler(BACKSYNC_TICK);
    await queue.removeJobScheduler(BACKSYNC_RECONCILE_TICK);
    return;
  }
  const opts = { removeOnComplete: true, removeOnFail: 100 };
  await queue.upsertJobScheduler(BACKSYNC_TICK, { every }, { name: BACKSYNC_TICK, opts });
  const daily = ctx.config.BACKSYNC_RECONCILE_MS;
  await queue.upsertJobScheduler(
    BACKSYNC_RECONCILE_TICK,
    { every: daily, startDate: Date.now() + daily },
    { name: BACKSYNC_RECONCILE_TICK, opts },
  );
  await requestForEach(ctx, await backSyncShops(ctx));
}
