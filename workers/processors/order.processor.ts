import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { runForJob } from "../outcome-adapter";
import { announceTracking as announceOrderTracking, deliverIfDue as deliverOrderIfDue } from "../../app/.server/orders";
import { fetchProductForOrder as fetchAndStageProduct } from "../../app/.server/catalog";
import { deliverJobSchema, trackingJobSchema, fetchProductJobSchema } from "../../app/.server/jobs";

// The order sync's timers (maintenance/"deliver-if-due", maintenance/"announce-tracking") and
// catalog/"fetch-product" (a product an order named but the catalog mirror lacks; its own job, so
// that a Shopify failure there never holds up or fails the order that asked for it). The work is
// in app/.server/orders/timed-updates.ts and app/.server/catalog/product-fetch.ts.

export async function announceTracking(job: Job, ctx: WorkerContext, token?: string) {
  const data = trackingJobSchema.parse(job.data);
  return runForJob(job, token, () => announceOrderTracking(ctx, data));
}

export async function deliverIfDue(job: Job, ctx: WorkerContext, token?: string) {
  const data = deliverJobSchema.parse(job.data);
  return runForJob(job, token, () => deliverOrderIfDue(ctx, data));
}

export async function fetchProductForOrder(job: Job, ctx: WorkerContext, token?: string) {
  const data = fetchProductJobSchema.parse(job.data);
  return runForJob(job, token, () => fetchAndStageProduct(ctx, data));
}
