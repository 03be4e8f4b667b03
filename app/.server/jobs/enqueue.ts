import { QueueName, WEBHOOK_DEDUPE_TTL_MS, jobIdPart, type Queues } from "../queues";
import {
  ANNOUNCE_TRACKING,
  BACKSYNC,
  BACKSYNC_RECONCILE,
  BACKSYNC_RECONCILE_TICK,
  BACKSYNC_TICK,
  CATALOG_SWEEP,
  DELIVER_IF_DUE,
  FETCH_PRODUCT,
  FLUSH,
  MIGRATE_TOKENS,
  PROBE_ADMIN_ACCESS,
  READ_CONSENT,
  SUBMIT_PENDING_REVIEW,
  syncJobName,
  type BackSyncJobData,
  type DeliverJob,
  type FetchProductJob,
  type FlushJob,
  type PendingReviewJob,
  type ReadConsentJob,
  type SyncKind,
  type TrackingJob,
} from "./catalogue";
import type { WebhookJob } from "./delivery";

// One function per job of catalogue.ts, with what BullMQ is told about it: its id, its
// deduplication, its delay, how long it is kept. A use case says what should happen ("flush this
// shop in 2 s") and this file says how a queue does it. Every id passes through jobIdPart: BullMQ
// ids may not contain ":".

type Producer = Pick<Queues, "get">;

// ---- catalog ----

/**
 * A flush of the shop's pending changes after `delayMs`. One per shop at a time (deduplication
 * keeping the last while one is active: at most one running and one waiting); a waiting one is
 * rescheduled to the new delay.
 */
export async function enqueueFlush(queues: Producer, shop: { id: string; domain: string }, delayMs: number) {
  const data: FlushJob = { shop: shop.domain, shopId: shop.id };
  await queues.get(QueueName.catalog).add(FLUSH, data, {
    delay: delayMs,
    deduplication: { id: `flush-${jobIdPart(shop.id)}`, keepLastIfActive: true, reschedule: true },
    removeOnComplete: true,
  });
}

// The next turn of a flush that yielded is queued this much later, not at once: BullMQ enqueues a
// deduplicated job's successor before it promotes the delayed jobs that fell due meanwhile (another
// shop's flush, due after its quiet window), so with no delay the same shop would go again first
// and the others wait two turns. Delayed by 1 ms, the next turn goes behind every job already due.
const NEXT_TURN_DELAY_MS = 1;

/** The shop's next flush turn, after a flush sent its share and yielded to other shops. */
export async function enqueueFlushNextTurn(queues: Producer, shop: { id: string; domain: string }) {
  await enqueueFlush(queues, shop, NEXT_TURN_DELAY_MS);
}

// Orders naming the same unknown product in a burst ask for one fetch.
const FETCH_DEDUPE_TTL_MS = 60_000;

export async function enqueueProductFetch(queues: Producer, shop: { id: string; domain: string }, productId: string) {
  const data: FetchProductJob = { shop: shop.domain, shopId: shop.id, productId };
  const id = `fetch-product-${jobIdPart(shop.id)}-${jobIdPart(productId)}`;
  await queues.get(QueueName.catalog).add(FETCH_PRODUCT, data, {
    deduplication: { id, ttl: FETCH_DEDUPE_TTL_MS },
    removeOnComplete: true,
  });
}

/**
 * The periodic catalog sweep (idempotent: every worker process upserts the same scheduler), first
 * one interval after now.
 */
export async function scheduleCatalogSweepJob(queues: Producer, everyMs: number) {
  await queues
    .get(QueueName.maintenance)
    .upsertJobScheduler(
      CATALOG_SWEEP,
      { every: everyMs, startDate: Date.now() + everyMs },
      { name: CATALOG_SWEEP, opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
}

// ---- sync ----

/** The job that starts a run's bulk operation; one per run. */
export async function enqueueSyncStart(queues: Producer, kind: SyncKind, runId: string) {
  const name = syncJobName(kind, "start");
  await queues.get(QueueName.sync).add(name, { runId }, { jobId: `${name}-${jobIdPart(runId)}` });
}

/** The read of a run's result: both the finish webhook and the poll may ask, the job id makes it one. */
export async function enqueueSyncRead(queues: Producer, kind: SyncKind, runId: string) {
  const name = syncJobName(kind, "read");
  await queues.get(QueueName.sync).add(name, { runId }, { jobId: `${name}-${jobIdPart(runId)}` });
}

/** The `n`th poll of a run's bulk operation, after `delayMs`; one per run and n. */
export async function enqueueSyncPoll(queues: Producer, kind: SyncKind, runId: string, n: number, delayMs: number) {
  const name = syncJobName(kind, "poll");
  await queues.get(QueueName.sync).add(name, { runId }, { delay: delayMs, jobId: `${name}-${jobIdPart(runId)}-${n}` });
}

// ---- webhooks ----

/** A verified delivery, once: its webhook id is its job id, and deduplicated for as long as Shopify may resend it. */
export async function enqueueWebhook(queues: Producer, job: WebhookJob) {
  await queues.get(QueueName.webhooks).add(job.topic, job, {
    jobId: `wh-${jobIdPart(job.deliveryId)}`,
    deduplication: { id: `wh-${jobIdPart(job.deliveryId)}`, ttl: WEBHOOK_DEDUPE_TTL_MS },
  });
}

// ---- maintenance ----

/**
 * The status update a fulfillment webhook implies, after `delayMs`. No job id: one id per order
 * could be swallowed by a job of that order that is already running. Each piece of news has its
 * own timer, and only the newest one's timer sends (orders/timed-updates.ts).
 */
export async function enqueueTrackingAnnouncement(queues: Producer, data: TrackingJob, delayMs: number) {
  await queues.get(QueueName.maintenance).add(ANNOUNCE_TRACKING, data, { delay: delayMs, removeOnComplete: true });
}

// The due time is part of the id: a later shipment moves the due time, and the job for the new time
// must not be swallowed by the id of a job that is already running.
export function deliverJobId(shopId: string, orderId: string, dueAt: Date): string {
  return `deliver-${jobIdPart(shopId)}-${jobIdPart(orderId)}-${dueAt.getTime()}`;
}

/** The "delivered by age" timer of an order for its due time; added once, whatever the number of calls. */
export async function enqueueDeliverIfDue(queues: Producer, data: DeliverJob) {
  const due = new Date(data.dueAt);
  await queues.get(QueueName.maintenance).add(DELIVER_IF_DUE, data, {
    jobId: deliverJobId(data.shopId, data.orderId, due),
    delay: Math.max(0, due.getTime() - Date.now()),
    removeOnComplete: true,
  });
}

/** Drops the timer of an old due time; quietly when it is gone, or is the one running now. */
export async function removeDeliverIfDue(queues: Producer, shopId: string, orderId: string, dueAt: Date) {
  await queues
    .get(QueueName.maintenance)
    .remove(deliverJobId(shopId, orderId, dueAt))
    .catch(() => 0);
}

/** A consent read after `delayMs`: one waiting read per customer, however many of their orders asked. */
export async function enqueueConsentRead(queues: Producer, data: ReadConsentJob, delayMs: number) {
  await queues.get(QueueName.maintenance).add(READ_CONSENT, data, {
    deduplication: { id: `consent-read-${jobIdPart(data.shopId)}-${jobIdPart(data.customerId)}` },
    delay: delayMs,
    removeOnComplete: true,
  });
}

/**
 * A kept review's submission, one per kept row. After a try whose answer never came the worker
 * waits a second for it to settle before it looks (pending-reviews/submit-pending.ts).
 */
export async function enqueuePendingReview(queues: Producer, pendingId: string) {
  const data: PendingReviewJob = { pendingId };
  await queues.get(QueueName.maintenance).add(SUBMIT_PENDING_REVIEW, data, {
    jobId: `review-submit-${jobIdPart(pendingId)}`,
    delay: 1_000,
  });
}

/**
 * A back-sync run of the shop (or its reconciliation) after `delayMs`. One run at a time per shop:
 * a run asked for while one waits is the same run; asked for while one runs, it comes right after
 * (deduplication keeping the last).
 */
export async function enqueueBackSync(queues: Producer, shopId: string, reconcile: boolean, delayMs = 0) {
  const name = reconcile ? BACKSYNC_RECONCILE : BACKSYNC;
  await queues.get(QueueName.maintenance).add(name, { shopId } satisfies BackSyncJobData, {
    delay: delayMs,
    deduplication: { id: `${name}-${jobIdPart(shopId)}`, keepLastIfActive: true },
    removeOnComplete: true,
  });
}

/**
 * The back-sync tick every `everyMs` (idempotent: every worker upserts the same scheduler); none
 * when `everyMs` is 0. The daily reconciliation's old tick goes either way.
 */
export async function scheduleBackSyncTick(queues: Producer, everyMs: number | null) {
  const queue = queues.get(QueueName.maintenance);
  await queue.removeJobScheduler(BACKSYNC_RECONCILE_TICK);
  if (everyMs === null) {
    await queue.removeJobScheduler(BACKSYNC_TICK);
    return;
  }
  const opts = { removeOnComplete: true, removeOnFail: 100 };
  await queue.upsertJobScheduler(BACKSYNC_TICK, { every: everyMs }, { name: BACKSYNC_TICK, opts });
}

/**
 * The address probe that follows `probes` refused ones, after `delayMs`: one job id per step, so
 * asking twice is one probe; one attempt (a failed probe schedules the next itself).
 */
export async function enqueueAddressProbe(queues: Producer, shop: string, probes: number, delayMs: number) {
  await queues.get(QueueName.maintenance).add(
    PROBE_ADMIN_ACCESS,
    { shop },
    {
      jobId: `${PROBE_ADMIN_ACCESS}-${jobIdPart(shop)}-${probes}`,
      delay: delayMs,
      attempts: 1,
      removeOnComplete: true,
      removeOnFail: true,
    },
  );
}

/**
 * The offline token migration every `everyMs`, first one interval after now (idempotent: every
 * worker upserts the same scheduler).
 */
export async function scheduleTokenMigrationJob(queues: Producer, everyMs: number) {
  await queues
    .get(QueueName.maintenance)
    .upsertJobScheduler(
      MIGRATE_TOKENS,
      { every: everyMs, startDate: Date.now() + everyMs },
      { name: MIGRATE_TOKENS, opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
}

/** The offline token migration now: one job at a time (a fixed id while it waits or runs). */
export async function enqueueTokenMigration(queues: Producer) {
  await queues
    .get(QueueName.maintenance)
    .add(MIGRATE_TOKENS, {}, { jobId: MIGRATE_TOKENS, removeOnComplete: true, removeOnFail: true });
}
