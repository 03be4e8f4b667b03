import { z } from "zod";

// Every job the workers run, by queue (queues/names.ts says why there are four): its name and what
// it carries. A name is stored in Redis with each waiting job, so a renamed job strands those that
// wait: a name changes only with a way for the old ones. A payload carries ids, never secrets (it
// is stored in clear). How each is enqueued, with its ids, deduplication and delays, is enqueue.ts;
// the webhook deliveries' payload is delivery.ts.

// ---- catalog: one shop's coalesced product changes at a time ----

/** Sends a shop's due catalog changes (catalog/flush.ts). */
export const FLUSH = "flush";
export const flushJobSchema = z.object({ shop: z.string(), shopId: z.string() });
export type FlushJob = z.infer<typeof flushJobSchema>;

/** Reads one product from the Admin API and stages it (catalog/product-fetch.ts). */
export const FETCH_PRODUCT = "fetch-product";
export const fetchProductJobSchema = z.object({ shop: z.string(), shopId: z.string(), productId: z.string().min(1) });
export type FetchProductJob = z.infer<typeof fetchProductJobSchema>;

// ---- sync: full syncs, a run's steps ----

export type SyncKind = "catalog" | "orders";
export type SyncStep = "start" | "poll" | "read";
/** A full sync's step: "catalog-start", "orders-read"… (sync/bulk-run.ts and the kinds' syncs). */
export const syncJobName = (kind: SyncKind, step: SyncStep) => `${kind}-${step}` as const;
export const runJob = z.object({ runId: z.string() });

// ---- maintenance: timers and housekeeping ----

/** "Treat as delivered N days after shipping", one per order and due time (orders/order-timers.ts). */
export const DELIVER_IF_DUE = "deliver-if-due";
export const deliverJobSchema = z.object({
  shop: z.string(),
  shopId: z.string(),
  orderId: z.string(),
  /** The time the job is for: it decides "delivered by age" as of this time. */
  dueAt: z.iso.datetime(),
});
export type DeliverJob = z.infer<typeof deliverJobSchema>;

/** The status update a fulfillment webhook implies, after a grace (orders/order-timers.ts). */
export const ANNOUNCE_TRACKING = "announce-tracking";
export const trackingJobSchema = z.object({
  shop: z.string(),
  shopId: z.string(),
  orderId: z.string(),
  /** OrderTracking.newsAt of the news this timer is for. */
  newsAt: z.string(),
});
export type TrackingJob = z.infer<typeof trackingJobSchema>;

/** The consent read that failed on an order's path, then the orders corrected (orders/order-consent.ts). */
export const READ_CONSENT = "read-consent";
export const readConsentJobSchema = z.object({
  shop: z.string(),
  shopId: z.string(),
  customerId: z.string().regex(/^\d+$/),
});
export type ReadConsentJob = z.infer<typeof readConsentJobSchema>;

/** A shopper's review or question the service could not take yet (pending-reviews/pending-reviews.ts). */
export const SUBMIT_PENDING_REVIEW = "review-submit";
export interface PendingReviewJob {
  pendingId: string;
}

/** Changes left waiting with no flush coming for them (catalog/sweep.ts); a repeatable job. */
export const CATALOG_SWEEP = "catalog-sweep";

/** A shop's back-sync run, and its reconciliation (backsync/schedule.ts). */
export const BACKSYNC = "backsync";
export const BACKSYNC_RECONCILE = "backsync-reconcile";
export interface BackSyncJobData {
  shopId: string;
}
/** The repeatable tick that asks runs for the shops due. */
export const BACKSYNC_TICK = "backsync-tick";
/** The daily reconciliation's own tick, before reconciliations were spread over the day: removed at start. */
export const BACKSYNC_RECONCILE_TICK = "backsync-reconcile-tick";

/** The Admin API probe of a shop whose calls Shopify refused (shops/address-probe.ts). */
export const PROBE_ADMIN_ACCESS = "probe-admin-access";

/** Expiring token pairs for the shops still on non-expiring offline tokens (shopify/token-migration.ts). */
export const MIGRATE_TOKENS = "tokens-migrate";
