// One queue per kind of work, so a long job of one kind never waits behind another kind: a shop's
// 100,000-product full sync (queue "sync") cannot stall another shop's order events, which are
// webhook deliveries ("webhooks") applied in the delivery's own job.
export const QueueName = {
  /** Webhook deliveries, one job per delivery, routed by topic to a processor. */
  webhooks: "webhooks",
  /** Per-shop flushes of coalesced catalog changes to the service. */
  catalog: "catalog",
  /** Full syncs and backfills: bulk operations read in slices, re-queued between slices. */
  sync: "sync",
  /** Delayed and housekeeping work: delivered-after-N-days, compliance requests. */
  maintenance: "maintenance",
} as const;

export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const allQueueNames = Object.values(QueueName);

/** BullMQ job ids may not contain ":"; Shopify ids and domains are mapped into a safe alphabet. */
export function jobIdPart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, "_");
}
