import { Worker, type Job } from "bullmq";
import type { WorkerContext } from "./context";
import { createRedis, queuePrefix, QueueName, startHeartbeat } from "../app/.server/queues";
import { observeJob } from "../app/.server/metrics";
import type { JobHandler, TopicHandler } from "./processors/registry";
import { createWebhookProcessor } from "./processors/webhook.processor";
import { appScopesUpdate, appUninstalled } from "./processors/lifecycle.handlers";
import { productDeleted, productUpserted } from "./processors/catalog.handlers";
import { flushCatalog } from "./processors/catalog.processor";
import { scheduleCatalogSweep, sweepCatalog } from "../app/.server/catalog";
import { fulfillmentChanged, fulfillmentEventCreated, orderChanged } from "./processors/order.handlers";
import { announceTracking, deliverIfDue, fetchProductForOrder } from "./processors/order.processor";
import { catalogPoll, catalogRead, catalogStart } from "./processors/catalog-sync.processor";
import { bulkOperationFinished } from "./processors/bulk-finish.handler";
import { ordersPoll, ordersRead, ordersStart } from "./processors/orders-sync.processor";
import { consentUpdated } from "./processors/consent.handlers";
import { readConsentLater } from "./processors/consent.processor";
import { parkRefusedJob, probeAdminAccess } from "./processors/address-probe.processor";
import { isAddressRefused, waitsForMerchant } from "../app/.server/shopify";
import { parkForMerchant } from "./processors/needs-merchant";
import { customersDataRequest, customersRedact, shopRedact } from "./processors/compliance.handlers";
import { submitPendingReview } from "./processors/review-submit.processor";
import { backSyncJob, backSyncTick } from "./processors/backsync.processor";
import { scheduleBackSync } from "../app/.server/backsync";
import { migrateTokensJob, scheduleTokenMigration } from "./processors/token-migration.processor";
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
} from "../app/.server/jobs";

// The processors of every queue, by the job names of the catalogue (app/.server/jobs/catalogue.ts).
// Later capabilities add topic handlers and job handlers here.
export interface Processors {
  topics: Record<string, TopicHandler>;
  jobs: Partial<Record<QueueName, Record<string, JobHandler>>>;
}

export function defaultProcessors(): Processors {
  return {
    topics: {
      "app/uninstalled": appUninstalled,
      "app/scopes_update": appScopesUpdate,
      "products/create": productUpserted,
      "products/update": productUpserted,
      "products/delete": productDeleted,
      "orders/create": orderChanged,
      "orders/updated": orderChanged,
      "orders/paid": orderChanged,
      "orders/cancelled": orderChanged,
      "orders/fulfilled": orderChanged,
      "orders/partially_fulfilled": orderChanged,
      "fulfillments/create": fulfillmentChanged,
      "fulfillments/update": fulfillmentChanged,
      "fulfillment_events/create": fulfillmentEventCreated,
      "bulk_operations/finish": bulkOperationFinished,
      "customers/data_request": customersDataRequest,
      "customers/redact": customersRedact,
      "shop/redact": shopRedact,
      "customers_email_marketing_consent/update": consentUpdated,
      "customers_marketing_consent/update": consentUpdated,
      "customers_whats_app_marketing_consent/update": consentUpdated,
    },
    jobs: {
      [QueueName.catalog]: { [FLUSH]: flushCatalog, [FETCH_PRODUCT]: fetchProductForOrder },
      [QueueName.maintenance]: {
        [DELIVER_IF_DUE]: deliverIfDue,
        [ANNOUNCE_TRACKING]: announceTracking,
        [CATALOG_SWEEP]: (_job, ctx) => sweepCatalog(ctx),
        [BACKSYNC]: backSyncJob({ reconcile: false }),
        [BACKSYNC_RECONCILE]: backSyncJob({ reconcile: true }),
        [BACKSYNC_TICK]: backSyncTick(),
        // A tick of the old daily scheduler still queued from before an upgrade.
        [BACKSYNC_RECONCILE_TICK]: backSyncTick(),
        [READ_CONSENT]: readConsentLater,
        [SUBMIT_PENDING_REVIEW]: submitPendingReview,
        [PROBE_ADMIN_ACCESS]: probeAdminAccess,
        [MIGRATE_TOKENS]: migrateTokensJob,
      },
      [QueueName.sync]: {
        [syncJobName("catalog", "start")]: catalogStart,
        [syncJobName("catalog", "poll")]: catalogPoll,
        [syncJobName("catalog", "read")]: catalogRead,
        [syncJobName("orders", "start")]: ordersStart,
        [syncJobName("orders", "poll")]: ordersPoll,
        [syncJobName("orders", "read")]: ordersRead,
      },
    },
  };
}

export interface RunningWorkers {
  workers: Worker[];
  /** Finish the jobs in hand, then close: what SIGTERM does. */
  close(): Promise<void>;
}

export function startWorkers(ctx: WorkerContext, processors: Processors = defaultProcessors()): RunningWorkers {
  const webhook = createWebhookProcessor(processors.topics);
  const concurrency = ctx.config.WORKER_CONCURRENCY;
  const run = (queue: QueueName, job: Job, token?: string) => {
    if (queue === QueueName.webhooks) return webhook(job, ctx, token);
    const handler = processors.jobs[queue]?.[job.name];
    if (!handler) throw new Error(`no handler for ${queue}/${job.name}`);
    return handler(job, ctx, token);
  };
  const route = (queue: QueueName) => async (job: Job, token?: string) => {
    try {
      return await run(queue, job, token);
    } catch (error) {
      // Shopify refuses this server's address: the job waits for the probe instead of retrying.
      if (isAddressRefused(error) && error.shop && token) return parkRefusedJob(ctx, queue, job, token, error);
      // Shopify refused the shop's token: the job waits for the merchant to open the app.
      if (waitsForMerchant(error) && token) return parkForMerchant(ctx, queue, job, token, error);
      throw error;
    }
  };

  const workers = Object.values(QueueName).map((queue) => {
    // Each worker has its own blocking connection, as BullMQ requires.
    const connection = createRedis({ url: ctx.config.REDIS_URL, cluster: ctx.config.REDIS_CLUSTER }, "worker", (e) =>
      ctx.log.warn({ err: e.message, queue }, "redis error"),
    );
    const worker = new Worker(queue, route(queue), {
      connection,
      prefix: queuePrefix(ctx.config, queue),
      concurrency: queue === QueueName.webhooks ? ctx.config.WEBHOOK_CONCURRENCY : concurrency,
      // A job whose worker died (SIGKILL) is taken up again after the lock lapses.
      lockDuration: ctx.config.WORKER_LOCK_MS,
      stalledInterval: Math.ceil(ctx.config.WORKER_LOCK_MS / 2),
      maxStalledCount: 5,
    });
    worker.on("error", (e) => ctx.log.warn({ err: e.message, queue }, "worker error"));
    worker.on("failed", (job, e) => {
      ctx.log.warn({ queue, job: job?.id, name: job?.name, attempts: job?.attemptsMade, err: e.message }, "job failed");
      observeJob(
        queue,
        job && job.attemptsMade < (job.opts.attempts ?? 1) && e.name !== "UnrecoverableError" ? "retry" : "failed",
        job,
      );
    });
    worker.on("completed", (job) => observeJob(queue, "completed", job));
    return { worker, connection };
  });

  const stopHeartbeat = startHeartbeat(ctx.queues.redis, ctx.config.REDIS_PREFIX, (e) =>
    ctx.log.warn({ err: e.message }, "heartbeat not written"),
  );
  scheduleCatalogSweep(ctx).catch((e: Error) => ctx.log.warn({ err: e.message }, "catalog sweep not scheduled"));
  scheduleBackSync(ctx).catch((e: Error) => ctx.log.warn({ err: e.message }, "back-sync not scheduled"));
  scheduleTokenMigration(ctx).catch((e: Error) =>
    ctx.log.warn({ err: e.message }, "offline token migration not queued"),
  );

  return {
    workers: workers.map((w) => w.worker),
    async close() {
      await stopHeartbeat();
      await Promise.allSettled(workers.map((w) => w.worker.close()));
      for (const w of workers) w.connection.disconnect();
    },
  };
}
