import { GiveUp, type TopicDelivery } from "../jobs";
import { legacyId, shopifyOrderSchema, deliverySource, type ShopifyOrder } from "../mapping";
import { syncShop, type SyncShop, type SyncShopDeps } from "../shops";
import { createPurchaseMemory } from "../customers";
import { createOrderStateRepository, EXCLUDED_STATUS } from "./order-state.repository";
import {
  emptyTracking,
  fulfillmentEventWebhookSchema,
  fulfillmentWebhookSchema,
  recordEvent,
  recordFulfillment,
  statusUpdateFor,
  type OrderTracking,
} from "./order-tracking";
import { applyOrder, type ApplyOrderDeps } from "./apply-order";
import { lockedOrder, sendStatusUpdate } from "./order-calls";
import { scheduleTrackingAnnouncement } from "./order-timers";

// Live order sync. Every order webhook carries the whole order, and the status is derived from the
// whole order (never from the topic), so all six order topics share one handler: the newest payload
// wins, an older one is dropped, an unchanged one is not sent. Fulfillment webhooks carry no order:
// they are recorded, and move the service's status forward (shipped, delivered) when the last order
// applied plus what they say make it so. All work on one order runs under that order's lock.

const unusable = (what: string, issue: { path: PropertyKey[]; message: string } | undefined) =>
  new GiveUp(`${what} payload unusable: ${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim());

export type OrderWebhookDeps = ApplyOrderDeps & SyncShopDeps;

/** orders/create, updated, paid, cancelled, fulfilled, partially_fulfilled. */
export async function orderChanged(ctx: OrderWebhookDeps, delivery: TopicDelivery): Promise<void> {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = shopifyOrderSchema.safeParse(delivery.payload);
  if (!parsed.success) throw unusable("order", parsed.error.issues[0]);
  const orderId = legacyId(parsed.data.id);
  if (!orderId) throw new GiveUp(`order payload unusable: id ${String(parsed.data.id)}`);
  await forgetPurchases(ctx, delivery, parsed.data);
  await lockedOrder(ctx, shop.id, orderId, () =>
    applyOrder(ctx, shop, orderId, parsed.data, { source: deliverySource(delivery) }),
  );
}

// Topics that change what a customer bought, as their reviews through the proxy prove it.
const PURCHASE_TOPICS = new Set(["orders/create", "orders/cancelled"]);

/**
 * A new or cancelled order: the buyer's remembered purchases (customers/purchases.ts) are forgotten,
 * so a shopper who has just bought can review it at once.
 */
async function forgetPurchases(ctx: OrderWebhookDeps, delivery: TopicDelivery, order: ShopifyOrder) {
  const customerId = order.customer?.id != null ? legacyId(order.customer.id) : null;
  if (!customerId || !PURCHASE_TOPICS.has(delivery.topic)) return;
  await createPurchaseMemory(ctx.queues.redis, ctx.config.REDIS_PREFIX).forget(delivery.shop, customerId);
}

/** fulfillments/create and fulfillments/update. */
export async function fulfillmentChanged(ctx: OrderWebhookDeps, delivery: TopicDelivery): Promise<void> {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = fulfillmentWebhookSchema.safeParse(delivery.payload);
  if (!parsed.success) throw unusable("fulfillment", parsed.error.issues[0]);
  const orderId = legacyId(parsed.data.order_id);
  await lockedOrder(ctx, shop.id, orderId, () =>
    applyTracking(ctx, shop, orderId, (t) => recordFulfillment(t, parsed.data)),
  );
}

/** fulfillment_events/create (a delivery is an event with status `delivered`). */
export async function fulfillmentEventCreated(ctx: OrderWebhookDeps, delivery: TopicDelivery): Promise<void> {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = fulfillmentEventWebhookSchema.safeParse(delivery.payload);
  if (!parsed.success) throw unusable("fulfillment event", parsed.error.issues[0]);
  const orderId = legacyId(parsed.data.order_id);
  await lockedOrder(ctx, shop.id, orderId, () =>
    applyTracking(ctx, shop, orderId, (t) => recordEvent(t, parsed.data, new Date())),
  );
}

async function applyTracking(
  ctx: OrderWebhookDeps,
  shop: SyncShop,
  orderId: string,
  change: (t: OrderTracking) => OrderTracking,
) {
  const states = createOrderStateRepository(ctx.db);
  const state = await states.get(shop.id, orderId);
  const tracking = change(state?.tracking ?? emptyTracking());
  // Never sent (unknown order, excluded, or only fulfillment news so far): recorded, and the next
  // order webhook sends the order with it.
  const update =
    state && state.status !== EXCLUDED_STATUS && tracking.serviceOrderId
      ? statusUpdateFor(state.status, tracking, shop.settings.orders, new Date())
      : null;
  if (!state || !update) {
    await states.save(shop.id, orderId, { tracking });
    return;
  }
  if (ctx.config.ORDER_TRACKING_GRACE_MS === 0) {
    await sendStatusUpdate(ctx, shop, orderId, state, tracking, update);
    return;
  }
  // Recorded now, so that an order webhook arriving in the grace carries the news (see order-timers.ts).
  const newsAt = new Date().toISOString();
  await states.save(shop.id, orderId, { tracking: { ...tracking, newsAt } });
  await scheduleTrackingAnnouncement(ctx, shop, orderId, newsAt);
}
