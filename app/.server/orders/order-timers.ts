import { z } from "zod";
import type { JobServices } from "../jobs";
import { QueueName, jobIdPart } from "../queues";

// The order sync's timers on the maintenance queue:
// - "deliver-if-due": "treat as delivered N days after shipping", one delayed job per order and
//   due time;
// - "announce-tracking": the status update a fulfillment webhook implies, sent after
//   ORDER_TRACKING_GRACE_MS unless an order webhook carried it meanwhile.
// What each does when it fires is in timed-updates.ts.

export const DELIVER_IF_DUE = "deliver-if-due";
export const ANNOUNCE_TRACKING = "announce-tracking";

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
  ctx: Pick<JobServices, "queues" | "config">,
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
  ctx: Pick<JobServices, "queues">,
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
