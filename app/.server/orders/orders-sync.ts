import { type JobServices, GiveUp, RetryLater } from "../jobs";
import {
  addProgress,
  parseProgress,
  type SyncProgress,
  RunTakenOverError,
  cancelledRun,
  enqueueRead,
  isPermanent,
  openResult,
  loadRun,
  pollRun,
  runCheckpoint,
  schedulePoll,
  stepAside,
  step,
  switchToPaged,
  type RunDeps,
  type RunStep,
} from "../sync";
import {
  bulkOrdersQuery,
  BulkOperationsRefusedError,
  startBulkQuery,
  type BulkGroup,
  readOrderPages,
  type PageCursor,
  isAddressRefused,
} from "../shopify";
import { observeSyncReadPath } from "../metrics";
import { createOrderStateRepository } from "./order-state.repository";
import { emptyTracking, parseTracking } from "./order-tracking";
import { adaptBulkOrder, OrderNodeError, trackedUtcOffset, withKnownFulfillmentLines } from "./graphql-order.adapter";
import { applyOrder, type ApplyOrderDeps, type OrderApplyOutcome } from "./apply-order";
import { lockedOrder } from "./order-calls";
import type { SyncShop } from "../shops";

// Orders backfill (on connect: the last settings.orders.backfillDays days) and reconciliation (the
// CLI, from a date): a bulk query over the orders created since then, read as a stream. Each order
// goes through the live path's own applyOrder under the order's lock, so the same rules decide:
// identical to what the service holds → not sent; different → sent once; older than what a
// webhook applied meanwhile → dropped. `resumeAt` counts the orders handled and moves with the
// progress every few orders; a worker killed in between re-reads at most that many orders, which
// applyOrder then finds unchanged. When Shopify refuses bulk operations the same orders are read
// with paged queries (OrdersPage), the page cursor saved with `resumeAt`.
//
// A service failure on one order stops the job there. When the job got further than where it
// started, it comes back shortly without spending an attempt (a flaky service still lets a long
// backfill advance); a failure with no progress at all spends one, with the queue's backoff.

/** Orders handled between two progress saves. */
export const SAVE_EVERY = 10;
/** Pause before a job that advanced and then hit a transient failure goes on from where it stopped. */
export const RESUME_AFTER_PROGRESS_MS = 500;
// While the catalog's full sync runs, orders wait: sent before their products, they would go
// without productData (and be sent again once it is known). A catalog run that stopped moving does
// not hold them up.
const CATALOG_WAIT_MS = 5_000;
const CATALOG_STALE_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

const cancelled = cancelledRun();

export type OrdersSyncDeps = RunDeps & ApplyOrderDeps & Pick<JobServices, "adminFor">;

/** Where a run without its own date starts: backfillDays before now. */
export function backfillSince(backfillDays: number, now: Date): Date {
  return new Date(now.getTime() - backfillDays * DAY_MS);
}

export function ordersStart(ctx: OrdersSyncDeps, current: RunStep) {
  return step(ctx, current, async () => {
    const { run, runs, target } = await loadRun(ctx, current.runId);
    if (!target) return runs.update(run.id, cancelled);
    if (run.bulkOperationId) return { already: run.bulkOperationId };
    if (run.readPath === "paged") return enqueueRead(ctx, "orders", run.id).then(() => ({ readPath: "paged" }));
    let since = run.since;
    if (!since) {
      const days = target.settings.orders.backfillDays;
      if (days === 0) {
        await runs.update(run.id, { status: "completed", error: null, finishedAt: new Date() });
        return { skipped: "backfillDays is 0" };
      }
      since = backfillSince(days, new Date());
      // Kept on the run: what the window was, for the operator and for a restarted start.
      await ctx.db.syncRun.update({ where: { id: run.id }, data: { since } });
    }
    const gql = await ctx.adminFor(target.domain);
    let id: string;
    try {
      id = await startBulkQuery(gql, bulkOrdersQuery({ createdSince: since }));
    } catch (error) {
      if (error instanceof BulkOperationsRefusedError) return switchToPaged(ctx, runs, run.id, "orders", error.message);
      throw error;
    }
    await runs.update(run.id, { status: "running", bulkOperationId: id, readPath: "bulk", readPathReason: null });
    observeSyncReadPath("orders", "bulk");
    // bulk_operations/finish drives the read; polling is the fallback when the webhook is late or lost.
    await schedulePoll(ctx, "orders", run.id);
    return { bulkOperationId: id, since: since.toISOString() };
  });
}

export function ordersPoll(ctx: OrdersSyncDeps, current: RunStep, poll: number) {
  return step(ctx, current, () => pollRun(ctx, current, "orders", poll));
}

type Outcome = OrderApplyOutcome | "failed";

function counted(outcome: Outcome): Partial<SyncProgress> {
  switch (outcome) {
    case "created":
      return { read: 1, sent: 1, created: 1 };
    case "updated":
      return { read: 1, sent: 1, updated: 1 };
    case "unchanged":
    case "stale":
      return { read: 1, unchanged: 1 };
    case "failed":
      return { read: 1, failed: 1 };
    case "excluded":
      // Kept out by the shop's settings: read, and neither sent nor unchanged.
      return { read: 1 };
  }
}

/**
 * The shop's UTC offset as its webhooks write it, from the newest order a webhook applied: bulk
 * results are in UTC, and delivery dates are calendar days in the shop's offset.
 */
async function shopUtcOffset(ctx: Pick<JobServices, "db">, shopId: string): Promise<string | undefined> {
  const row = await ctx.db.orderState.findFirst({
    where: { shopId, fulfillmentEvents: { contains: '"$order"' } },
    orderBy: { updatedAt: "desc" },
    select: { fulfillmentEvents: true },
  });
  return row ? trackedUtcOffset(parseTracking(row.fulfillmentEvents)) : undefined;
}

/** One order of the bulk result through the live path. A refusal or an unreadable node is "failed". */
async function reconcileOrder(
  ctx: OrdersSyncDeps,
  shop: SyncShop,
  group: BulkGroup,
  shopOffset: string | undefined,
  // When the run began: the read is no older (mapping/change-version.ts).
  readAt: Date,
): Promise<Outcome> {
  let orderId: string;
  try {
    orderId = adaptBulkOrder(group).orderId;
  } catch (error) {
    if (!(error instanceof OrderNodeError)) throw error;
    // One odd order must not stop a backfill of thousands: counted, logged, and the run goes on.
    ctx.log.warn({ shop: shop.domain, order: group.parent.id, err: error.message }, "order not adapted");
    return "failed";
  }
  try {
    return await lockedOrder(ctx, shop.id, orderId, async () => {
      // Under the lock: what the webhooks recorded of this order completes the bulk node.
      const state = await createOrderStateRepository(ctx.db).get(shop.id, orderId);
      const tracking = state?.tracking ?? emptyTracking();
      const { order, consent } = adaptBulkOrder(group, { utcOffset: trackedUtcOffset(tracking) ?? shopOffset });
      return applyOrder(ctx, shop, orderId, withKnownFulfillmentLines(order, tracking), {
        consent,
        source: { readAt },
      });
    });
  } catch (error) {
    // Refused by the service: recorded on the order (sync errors show it), the run goes on.
    if (error instanceof GiveUp) {
      ctx.log.warn({ shop: shop.domain, order: orderId, err: error.message }, "order refused during reconciliation");
      return "failed";
    }
    throw error;
  }
}

export function ordersRead(ctx: OrdersSyncDeps, current: RunStep) {
  return step(ctx, current, async () => {
    const { run, runs, target } = await loadRun(ctx, current.runId);
    if (!target) return runs.update(run.id, cancelled);
    if (run.status === "completed" || run.status === "failed" || run.status === "cancelled") return { done: true };

    const catalog = await runs.active(target.id, "catalog");
    if (catalog && current.canDefer && Date.now() - catalog.updatedAt.getTime() < CATALOG_STALE_MS) {
      throw new RetryLater("orders wait for the catalog sync under way", CATALOG_WAIT_MS);
    }

    const shopOffset = await shopUtcOffset(ctx, target.id);

    const since = run.since;
    const paged = async function* (from: PageCursor) {
      if (!since) throw new GiveUp(`orders run ${run.id} has no start date`);
      const gql = await ctx.adminFor(target.domain);
      yield* readOrderPages(gql, { createdSince: since, from });
    };
    const result = await openResult(ctx, runs, run, target, paged);
    const checkpoint = runCheckpoint(runs, run, current, result.total);
    let progress = parseProgress(run.progress);
    let pending: Partial<SyncProgress>[] = [];
    let done = run.resumeAt;
    let resume: PageCursor | undefined;
    const save = async () => {
      if (!pending.length) return;
      for (const p of pending) progress = addProgress(progress, p);
      pending = [];
      await checkpoint.save(progress, done, resume);
    };

    try {
      for await (const { position, group, resume: at } of result.lines) {
        pending.push(counted(await reconcileOrder(ctx, target, group, shopOffset, run.startedAt)));
        done = position;
        resume = at;
        if (pending.length >= SAVE_EVERY) await save();
      }
      await save();
    } catch (error) {
      if (error instanceof RunTakenOverError) return stepAside(ctx, current, error);
      try {
        await save();
      } catch (saveError) {
        if (saveError instanceof RunTakenOverError) return stepAside(ctx, current, saveError);
        throw saveError;
      }
      if (error instanceof RetryLater || isAddressRefused(error)) throw error;
      if (!isPermanent(error) && done > run.resumeAt && current.canDefer) {
        ctx.log.warn(
          { shop: target.domain, run: run.id, at: done, err: (error as Error).message },
          "orders sync interrupted; resuming",
        );
        throw new RetryLater(`resuming after order ${done}: ${(error as Error).message}`, RESUME_AFTER_PROGRESS_MS, {
          cause: error,
        });
      }
      throw error;
    }
    await runs.update(run.id, { status: "completed", finishedAt: new Date(), error: null });
    ctx.log.info({ shop: target.domain, run: run.id, progress, resumedFrom: run.resumeAt }, "orders sync completed");
    return progress;
  });
}
