import { syncShop, type SyncShopDeps } from "../shops";
import { createOrderStateRepository, EXCLUDED_STATUS } from "./order-state.repository";
import { statusUpdateFor, trackedDeliveryDueAt } from "./order-tracking";
import { lockedOrder, sendStatusUpdate, type OrderCallDeps } from "./order-calls";
import type { DeliverJob, TrackingJob } from "../jobs";
import { syncDeliveryTimer } from "./order-timers";

// What the order sync's timers do when they fire (order-timers.ts schedules them).

export type TimedUpdateDeps = OrderCallDeps & SyncShopDeps;

/** What the service has not been told of the order's shipments yet, if anything: sent now. */
export async function announceTracking(ctx: TimedUpdateDeps, data: TrackingJob) {
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
    await sendStatusUpdate(ctx, shop, data.orderId, state, state.tracking, update);
    return { sent: update.status };
  });
}

/**
 * At the due time: delivered, unless the order was delivered, cancelled or changed in between (then
 * the order webhooks decided, or a later shipment moved the due time and that time's job decides).
 */
export async function deliverIfDue(ctx: TimedUpdateDeps, data: DeliverJob) {
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
      await sendStatusUpdate(ctx, shop, data.orderId, state, state.tracking, update);
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
