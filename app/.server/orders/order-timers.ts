import {
  enqueueDeliverIfDue,
  enqueueTrackingAnnouncement,
  removeDeliverIfDue,
  type DeliverJob,
  type JobServices,
  type TrackingJob,
} from "../jobs";

// The order sync's timers on the maintenance queue:
// - "deliver-if-due": "treat as delivered N days after shipping", one delayed job per order and
//   due time;
// - "announce-tracking": the status update a fulfillment webhook implies, sent after
//   ORDER_TRACKING_GRACE_MS unless an order webhook carried it meanwhile.
// What each does when it fires is in timed-updates.ts.

// Shipment news from fulfillment webhooks
//
// Shopify sends a shipment as fulfillments/create with orders/fulfilled (or partially_fulfilled)
// and orders/updated, and a delivery often as fulfillment_events/create with fulfillments/update
// and orders/updated, all at once and in no set order. Sent at once, the news would cost a status
// update, and then the order webhook a second request (the update leaves the items' statuses
// behind, so the whole order goes again). Recorded at once and announced after a grace, the news
// is carried by the order webhook when one comes, and goes as a status update when none does.

export async function scheduleTrackingAnnouncement(
  ctx: Pick<JobServices, "queues" | "config">,
  shop: { id: string; domain: string },
  orderId: string,
  newsAt: string,
): Promise<void> {
  const data: TrackingJob = { shop: shop.domain, shopId: shop.id, orderId, newsAt };
  // Each piece of news has its own timer, and only the newest one's timer sends (timed-updates.ts).
  await enqueueTrackingAnnouncement(ctx.queues, data, ctx.config.ORDER_TRACKING_GRACE_MS);
}

/**
 * Keeps the maintenance queue in step with OrderState.deliveryDueAt: the job for the new due time
 * (added once, whatever the number of calls), none left for an old one.
 */
export async function syncDeliveryTimer(
  ctx: Pick<JobServices, "queues">,
  shop: { id: string; domain: string },
  orderId: string,
  due: Date | null,
  previous: Date | null,
): Promise<void> {
  if (previous && previous.getTime() !== due?.getTime()) {
    // Gone quietly, or the one running now (the timer that fired).
    await removeDeliverIfDue(ctx.queues, shop.id, orderId, previous);
  }
  if (!due) return;
  const data: DeliverJob = { shop: shop.domain, shopId: shop.id, orderId, dueAt: due.toISOString() };
  await enqueueDeliverIfDue(ctx.queues, data);
}
