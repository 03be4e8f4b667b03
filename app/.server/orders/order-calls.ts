import { AsyncLocalStorage } from "node:async_hooks";
import { type JobServices, GiveUp, serviceLimitAsRetry } from "../jobs";
import {
  ReviewsError,
  ReviewsPermanentError,
  ReviewsRateLimitedError,
  type CallOptions,
  type ReviewsClient,
} from "../reviews";
import { createResendLedger, resendUnknownOrder } from "../resend";
import type { SyncShop } from "../shops";
import { OrderLockLostError, withOrderLock } from "./order-lock";
import type { ConfirmHeld } from "../queues";
import { startSync } from "../sync";
import { createOrderStateRepository, type OrderState } from "./order-state.repository";
import { trackedDeliveryDueAt, type OrderTracking, type StatusUpdate } from "./order-tracking";
import { syncDeliveryTimer } from "./order-timers";
import { noteOrderDelivered } from "../activity";

// The service calls of the order sync, shared by its webhooks, its timers, the consent path and
// the reconciliation: each made under the order's lock, with what the service answered recorded on
// the order.

export type OrderCallDeps = Pick<JobServices, "db" | "queues" | "config" | "log" | "reviewsFor">;

// The order lock each piece of work holds, found by callServiceForOrder however deep the call: the
// lease must reach the service call of every path (order webhooks, fulfillment news, timers,
// consent, reconciliation), and the lock is taken far from there.
const heldOrder = new AsyncLocalStorage<{
  shopId: string;
  orderId: string;
  lease: AbortSignal;
  confirm: ConfirmHeld;
}>();

/**
 * Runs fn holding the order's lock (see order-lock.ts). A request that went out while the lock was
 * lapsing (the fence in callServiceForOrder found it another's) is followed by the newest form of
 * the order: once the lock is this job's again, what was sent is forgotten and the order is read
 * again from Shopify (resendAfterLostLock); the job then retries.
 */
export async function lockedOrder<T>(
  ctx: Pick<JobServices, "queues" | "config" | "db">,
  shopId: string,
  orderId: string,
  fn: () => Promise<T>,
): Promise<T> {
  const run = (work: () => Promise<T>) =>
    withOrderLock(
      ctx.queues.redis,
      ctx.config.REDIS_PREFIX,
      shopId,
      orderId,
      (lease, confirm) => heldOrder.run({ shopId, orderId, lease, confirm }, work),
      { ttlMs: ctx.config.WORKER_LOCK_MS },
    );
  try {
    return await run(fn);
  } catch (error) {
    if (error instanceof OrderLockLostError && error.sent) {
      await withOrderLock(
        ctx.queues.redis,
        ctx.config.REDIS_PREFIX,
        shopId,
        orderId,
        () => resendAfterLostLock(ctx, shopId, orderId),
        { ttlMs: ctx.config.WORKER_LOCK_MS },
      );
    }
    throw error;
  }
}

/**
 * What the service holds of the order forgotten (so its newest form is not skipped as unchanged) and
 * an orders reconciliation from its creation started (or joined): it reads the order as Shopify
 * holds it now, after the request that may have landed late, and sends it.
 */
async function resendAfterLostLock(ctx: Pick<JobServices, "db" | "queues">, shopId: string, orderId: string) {
  const state = await createOrderStateRepository(ctx.db).get(shopId, orderId);
  // The version stays: an older payload (this job's own retry) is still dropped; the reconciliation
  // started after the newer send reads a version no older than it.
  await ctx.db.orderState.updateMany({ where: { shopId, orderId }, data: { fingerprint: null } });
  const created = state?.tracking.order?.created_at ? Date.parse(state.tracking.order.created_at) : Number.NaN;
  // A minute early: Shopify's created_at and the bulk query's filter round differently.
  await startSync(ctx, shopId, "orders", Number.isFinite(created) ? new Date(created - 60_000) : undefined);
}

/**
 * One call to the service for one order, made under the order's lock (lockedOrder). A 429 is
 * RetryLater for its Retry-After (no attempt spent); a refusal (4xx, an answer we cannot read) is
 * recorded on the order and GiveUp (no retries); other errors are recorded and retried by the
 * queue. `call` passes `options` on: once the lock lapses, the request is not sent (or is cut off).
 */
export async function callServiceForOrder<T>(
  ctx: Pick<JobServices, "db" | "reviewsFor">,
  shop: SyncShop,
  orderId: string,
  call: (client: ReviewsClient, options: CallOptions) => Promise<T>,
): Promise<T> {
  const held = heldOrder.getStore();
  if (held?.shopId !== shop.id || held.orderId !== orderId) {
    throw new Error(`order ${orderId}: service called without the order's lock`);
  }
  const { lease, confirm } = held;
  const client = await ctx.reviewsFor(shop.domain);
  // Another job may hold the order now, and have sent it newer than what this one read: not sent.
  if (lease.aborted) throw new OrderLockLostError(orderId);
  // Cut off once the lease ends, but a request cut off may have reached the service all the same.
  const answer = await call(client, { signal: lease }).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  // The fence: the request landed under this job's lock only if Redis still says it is this job's.
  // If not, nothing is recorded (the next holder writes the order) and the newest form follows
  // (lockedOrder).
  if (!(await confirm())) throw new OrderLockLostError(orderId, mayHaveLanded(answer));
  try {
    if (answer.ok) return answer.value;
    throw answer.error;
  } catch (error) {
    // The service's 429: the work comes back after its Retry-After; nothing to record.
    if (error instanceof ReviewsRateLimitedError) throw serviceLimitAsRetry(error);
    if (!(error instanceof ReviewsError)) throw error;
    await createOrderStateRepository(ctx.db).recordError(shop.id, orderId, error.message);
    if (error.kind === "permanent" || error.kind === "response") {
      throw new GiveUp(`order ${orderId} refused by the service: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Whether a request may have changed the order at the service: answered 2xx, or with no answer that
 * says otherwise (cut off, timed out, a 2xx body we could not read). An error status is a refusal.
 */
function mayHaveLanded(answer: { ok: true } | { ok: false; error: unknown }): boolean {
  if (answer.ok) return true;
  const { error } = answer;
  return !(error instanceof ReviewsError && error.status !== null && error.kind !== "response");
}

/**
 * Sends a status change (shipped, delivered) through the update operation and records it. The
 * fingerprint is cleared: the service no longer holds exactly the body it was taken of, so the next
 * order webhook sends the whole order again.
 */
export async function sendStatusUpdate(
  ctx: OrderCallDeps,
  shop: SyncShop,
  orderId: string,
  previous: OrderState,
  tracking: OrderTracking,
  update: StatusUpdate,
): Promise<void> {
  const serviceOrderId = tracking.serviceOrderId;
  if (!serviceOrderId) throw new Error(`order ${orderId}: no service order id to update`);
  const answer = await callServiceForOrder(ctx, shop, orderId, (client, options) =>
    client.admin.updateOrder(serviceOrderId, update, options).then(
      () => "saved" as const,
      (error: unknown) => {
        if (error instanceof ReviewsPermanentError && error.reason === "not_found") return error;
        throw error;
      },
    ),
  );
  if (answer !== "saved") {
    // The service no longer knows an order it was sent: the whole order goes again (once per window).
    const ledger = createResendLedger(ctx.queues.redis, ctx.config.REDIS_PREFIX);
    const outcome = await resendUnknownOrder(
      { db: ctx.db, queues: ctx.queues, ledger, windowMs: ctx.config.RESEND_WINDOW_MS },
      shop,
      orderId,
      tracking.order?.created_at,
    );
    if (outcome.kind === "denied") {
      await createOrderStateRepository(ctx.db).recordError(shop.id, orderId, answer.message);
      throw new GiveUp(`order ${orderId} unknown to the service again after it was sent again: ${answer.message}`);
    }
    await createOrderStateRepository(ctx.db).save(shop.id, orderId, { tracking });
    ctx.log.info(
      { shop: shop.domain, order: orderId, run: outcome.runId },
      "order unknown to the service: sent again whole",
    );
    return;
  }
  const due = update.status === "shipped" ? trackedDeliveryDueAt(tracking, shop.settings.orders) : null;
  await createOrderStateRepository(ctx.db).save(shop.id, orderId, {
    status: update.status,
    fingerprint: null,
    deliveryDueAt: due,
    tracking,
    sentAt: new Date(),
    error: null,
    errorAt: null,
  });
  await syncDeliveryTimer(ctx, shop, orderId, due, previous.deliveryDueAt);
  ctx.log.info({ shop: shop.domain, order: orderId, status: update.status }, "order status updated");
  if (update.status === "delivered") await noteOrderDelivered(ctx, shop.id);
}
