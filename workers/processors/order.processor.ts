import { AsyncLocalStorage } from "node:async_hooks";
import { DelayedError, type Job } from "bullmq";
import { z } from "zod";
import { NoOfflineSessionError, type WorkerContext } from "../context";
import { QueueName, jobIdPart } from "../../app/.server/queues/names";
import { ReviewsError, ReviewsPermanentError, type CallOptions, type ReviewsClient } from "../../app/.server/reviews";
import { createResendLedger } from "../../app/.server/resend/resend-ledger";
import { resendUnknownOrder } from "../../app/.server/resend/unknown-order";
import { productGid, productKey } from "../../app/.server/mapping/keys";
import {
  categoriesWithSource,
  fromGraphqlProduct,
  mapProduct,
  sourceUpdatedAtOf,
} from "../../app/.server/mapping/product.mapper";
import { fetchProduct } from "../../app/.server/shopify/queries";
import { ShopifyApiError, ShopifyThrottledError, isAddressRefused } from "../../app/.server/shopify/errors";
import { stageProduct } from "../../app/.server/catalog/stage";
import { OrderLockLostError, withOrderLock } from "../../app/.server/orders/order-lock";
import {
  createOrderStateRepository,
  EXCLUDED_STATUS,
  type OrderState,
} from "../../app/.server/orders/order-state.repository";
import {
  statusUpdateFor,
  trackedDeliveryDueAt,
  type OrderTracking,
  type StatusUpdate,
} from "../../app/.server/orders/order-tracking";
import { PermanentJobError } from "./errors";
import { honouringRetryAfter } from "./service-errors";
import { syncShop, type SyncShop } from "./sync-shop";
import { scheduleFlushAfterStage } from "./catalog.processor";
import {
  FETCH_PRODUCT,
  fetchProductJobSchema,
  requestProductFetch,
  type FetchProductJob,
} from "../../app/.server/catalog/product-fetch";

export { FETCH_PRODUCT, fetchProductJobSchema, requestProductFetch, type FetchProductJob };

// The order sync's queue jobs and the service calls shared with its webhook handlers:
// - maintenance/"deliver-if-due": "treat as delivered N days after shipping", one delayed job per
//   order and due time;
// - maintenance/"announce-tracking": the status update a fulfillment webhook implies, sent after
//   ORDER_TRACKING_GRACE_MS unless an order webhook carried it meanwhile;
// - catalog/"fetch-product": a product an order named but the catalog mirror lacks, read from
//   Shopify and staged through the live catalog path. Its own job, so that a Shopify failure there
//   never holds up or fails the order that asked for it.

export const DELIVER_IF_DUE = "deliver-if-due";
export const ANNOUNCE_TRACKING = "announce-tracking";

// The order lock each piece of work holds, found by callServiceForOrder however deep the call: the
// lease must reach the service call of every path (order webhooks, fulfillment news, timers,
// consent, reconciliation), and the lock is taken far from there.
const heldOrder = new AsyncLocalStorage<{ shopId: string; orderId: string; lease: AbortSignal }>();

/** Runs fn holding the order's lock (see order-lock.ts). */
export function lockedOrder<T>(ctx: WorkerContext, shopId: string, orderId: string, fn: () => Promise<T>): Promise<T> {
  return withOrderLock(
    ctx.queues.redis,
    ctx.config.REDIS_PREFIX,
    shopId,
    orderId,
    (lease) => heldOrder.run({ shopId, orderId, lease }, fn),
    { ttlMs: ctx.config.WORKER_LOCK_MS },
  );
}

/**
 * One call to the service for one order, made under the order's lock (lockedOrder). A 429 delays
 * the job for Retry-After (no attempt spent); a refusal (4xx, an answer we cannot read) is recorded
 * on the order and fails the job without retries; other errors are recorded and retried by the
 * queue. `call` passes `options` on: once the lock lapses, the request is not sent (or is cut off).
 */
export async function callServiceForOrder<T>(
  ctx: WorkerContext,
  shop: SyncShop,
  orderId: string,
  job: Job,
  token: string | undefined,
  call: (client: ReviewsClient, options: CallOptions) => Promise<T>,
): Promise<T> {
  const held = heldOrder.getStore();
  if (held?.shopId !== shop.id || held.orderId !== orderId) {
    throw new Error(`order ${orderId}: service called without the order's lock`);
  }
  const { lease } = held;
  const client = await ctx.reviewsFor(shop.domain);
  try {
    return await honouringRetryAfter(job, token, () =>
      call(client, { signal: lease }).catch((error: unknown) => {
        // Another job may hold the order now, and have sent it newer than what this one read.
        // Nothing is recorded on the order: that job writes it.
        throw lease.aborted ? new OrderLockLostError(orderId) : error;
      }),
    );
  } catch (error) {
    if (!(error instanceof ReviewsError)) throw error;
    await createOrderStateRepository(ctx.db).recordError(shop.id, orderId, error.message);
    if (error.kind === "permanent" || error.kind === "response") {
      throw new PermanentJobError(`order ${orderId} refused by the service: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Sends a status change (shipped, delivered) through the update operation and records it. The
 * fingerprint is cleared: the service no longer holds exactly the body it was taken of, so the next
 * order webhook sends the whole order again.
 */
export async function sendStatusUpdate(
  ctx: WorkerContext,
  shop: SyncShop,
  orderId: string,
  previous: OrderState,
  tracking: OrderTracking,
  update: StatusUpdate,
  job: Job,
  token: string | undefined,
): Promise<void> {
  const serviceOrderId = tracking.serviceOrderId;
  if (!serviceOrderId) throw new Error(`order ${orderId}: no service order id to update`);
  const answer = await callServiceForOrder(ctx, shop, orderId, job, token, (client, options) =>
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
      throw new PermanentJobError(
        `order ${orderId} unknown to the service again after it was sent again: ${answer.message}`,
      );
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
}

// ---------------------------------------------------------------------------------------------
// Shipment news from fulfillment webhooks
//
// Shopify sends a shipment as fulfillments/create with orders/fulfilled (or partially_fulfilled)
// and orders/updated, and a delivery often as fulfillment_events/create with fulfillments/update
// and orders/updated, all at once and in no set order. Sent at once, the news would cost a status
// update, and then the order webhook a second request (the update leaves the items' statuses
// behind, so the whole order goes again). Recorded at once and announced after a grace, the news
// is carried by the order webhook when one comes, and goes as a status update when none does.

export const trackingJobSchema = z.object({
  shop: z.string(),
  shopId: z.string(),
  orderId: z.string(),
  /** OrderTracking.newsAt of the news this timer is for. */
  newsAt: z.string(),
});
export type TrackingJob = z.infer<typeof trackingJobSchema>;

export async function scheduleTrackingAnnouncement(
  ctx: Pick<WorkerContext, "queues" | "config">,
  shop: { id: string; domain: string },
  orderId: string,
  newsAt: string,
): Promise<void> {
  const data: TrackingJob = { shop: shop.domain, shopId: shop.id, orderId, newsAt };
  // No job id: one id per order could be swallowed by a job of that order that is already running.
  // Each piece of news has its own timer, and only the newest one's timer sends (see below).
  await ctx.queues
    .get(QueueName.maintenance)
    .add(ANNOUNCE_TRACKING, data, { delay: ctx.config.ORDER_TRACKING_GRACE_MS, removeOnComplete: true });
}

/** What the service has not been told of the order's shipments yet, if anything: sent now. */
export async function announceTracking(job: Job, ctx: WorkerContext, token?: string) {
  const data = trackingJobSchema.parse(job.data);
  const shop = await syncShop(ctx, data.shop);
  if (!shop) return { skipped: "shop not syncing" };
  return lockedOrder(ctx, shop.id, data.orderId, async () => {
    const state = await createOrderStateRepository(ctx.db).get(shop.id, data.orderId);
    if (!state || state.status === EXCLUDED_STATUS || !state.tracking.serviceOrderId)
      return { skipped: "order not sent" };
    // Newer news came in this one's grace: its own timer gives the order webhook that carries it
    // the same grace, and announces both if none comes.
    if (state.tracking.newsAt && state.tracking.newsAt > data.newsAt) return { skipped: "newer news waits" };
    // Nothing, when an order webhook carried the news in the grace.
    const update = statusUpdateFor(state.status, state.tracking, shop.settings.orders, new Date());
    if (!update) return { skipped: "nothing new for the service" };
    await sendStatusUpdate(ctx, shop, data.orderId, state, state.tracking, update, job, token);
    return { sent: update.status };
  });
}

// ---------------------------------------------------------------------------------------------
// Delivered after N days

export const deliverJobSchema = z.object({
  shop: z.string(),
  shopId: z.string(),
  orderId: z.string(),
  /** The time the job is for: it decides "delivered by age" as of this time. */
  dueAt: z.iso.datetime(),
});
export type DeliverJob = z.infer<typeof deliverJobSchema>;

// The due time is part of the id: a later shipment moves the due time, and the job for the new time
// must not be swallowed by the id of a job that is already running.
export function deliverJobId(shopId: string, orderId: string, dueAt: Date): string {
  return `deliver-${jobIdPart(shopId)}-${jobIdPart(orderId)}-${dueAt.getTime()}`;
}

/**
 * Keeps the maintenance queue in step with OrderState.deliveryDueAt: the job for the new due time
 * (added once, whatever the number of calls), none left for an old one.
 */
export async function syncDeliveryTimer(
  ctx: Pick<WorkerContext, "queues" | "log">,
  shop: { id: string; domain: string },
  orderId: string,
  due: Date | null,
  previous: Date | null,
): Promise<void> {
  const queue = ctx.queues.get(QueueName.maintenance);
  if (previous && previous.getTime() !== due?.getTime()) {
    // Fails quietly when that job is gone, or is the one running now (the timer that fired).
    await queue.remove(deliverJobId(shop.id, orderId, previous)).catch(() => 0);
  }
  if (!due) return;
  const data: DeliverJob = { shop: shop.domain, shopId: shop.id, orderId, dueAt: due.toISOString() };
  await queue.add(DELIVER_IF_DUE, data, {
    jobId: deliverJobId(shop.id, orderId, due),
    delay: Math.max(0, due.getTime() - Date.now()),
    removeOnComplete: true,
  });
}

/**
 * At the due time: delivered, unless the order was delivered, cancelled or changed in between (then
 * the order webhooks decided, or a later shipment moved the due time and that time's job decides).
 */
export async function deliverIfDue(job: Job, ctx: WorkerContext, token?: string) {
  const data = deliverJobSchema.parse(job.data);
  const shop = await syncShop(ctx, data.shop);
  if (!shop) return { skipped: "shop not syncing" };
  return lockedOrder(ctx, shop.id, data.orderId, async () => {
    const states = createOrderStateRepository(ctx.db);
    const state = await states.get(shop.id, data.orderId);
    if (!state || state.status !== "shipped") return { skipped: `order ${state?.status ?? "unknown"}` };
    const dueAt = new Date(data.dueAt);
    // The job is the clock: it stands for its due time even when it runs early (promoted by hand).
    const asOf = new Date(Math.max(Date.now(), dueAt.getTime()));
    const update = statusUpdateFor(state.status, state.tracking, shop.settings.orders, asOf);
    if (update?.status === "delivered") {
      await sendStatusUpdate(ctx, shop, data.orderId, state, state.tracking, update, job, token);
      return { delivered: update.deliveredDate ?? true };
    }
    const due = trackedDeliveryDueAt(state.tracking, shop.settings.orders);
    if (due?.getTime() !== state.deliveryDueAt?.getTime()) {
      await states.save(shop.id, data.orderId, { deliveryDueAt: due });
      await syncDeliveryTimer(ctx, shop, data.orderId, due && due > dueAt ? due : null, null);
    }
    return { skipped: "not due", due: due?.toISOString() ?? null };
  });
}

// ---------------------------------------------------------------------------------------------
// Products the mirror lacks

/** Reads one product from the Admin API and stages it like a products/update would. */
export async function fetchProductForOrder(job: Job, ctx: WorkerContext, token?: string) {
  const data = fetchProductJobSchema.parse(job.data);
  const shop = await syncShop(ctx, data.shop);
  if (!shop) return { skipped: true };
  let node: Awaited<ReturnType<typeof fetchProduct>>;
  try {
    const gql = await ctx.adminFor(shop.domain);
    node = await fetchProduct(gql, productGid(data.productId), {
      metafieldKeys: shop.settings.catalog.specificationMetafields,
    });
  } catch (error) {
    if (error instanceof ShopifyThrottledError && token) {
      await job.moveToDelayed(Date.now() + error.retryAfterMs, token);
      throw new DelayedError(`throttled by Shopify for ${error.retryAfterMs} ms`);
    }
    if (isAddressRefused(error)) throw error; // parked until Shopify accepts this server again
    if (error instanceof NoOfflineSessionError || (error instanceof ShopifyApiError && !error.retryable)) {
      throw new PermanentJobError(`product ${data.productId} not fetched: ${(error as Error).message}`);
    }
    throw error;
  }
  // Deleted since the order was placed: nothing to add to the catalog.
  if (!node) return { found: false };
  const input = fromGraphqlProduct(node);
  const product = mapProduct(input, { primaryDomain: shop.primaryDomain, settings: shop.settings.catalog });
  const version = {
    sourceUpdatedAt: sourceUpdatedAtOf(input),
    categoriesFrom: categoriesWithSource(input, shop.settings.catalog.defaultCategory).from,
  };
  const result = await stageProduct(ctx, shop.id, productKey(data.productId), product, version);
  if (result.staged) await scheduleFlushAfterStage(ctx, shop, result.waitingSince);
  return { found: true, staged: result.staged };
}
