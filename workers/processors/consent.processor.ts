import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { runForJob } from "../outcome-adapter";
import { readConsentLater as readAndCorrect } from "../../app/.server/orders";
import { readConsentJobSchema } from "../../app/.server/jobs";

// maintenance/"read-consent": the consent read that failed on an order's path, then the customer's
// orders corrected (app/.server/orders/order-consent.ts). Throttled by Shopify, the job waits in
// the delayed set; no session or a refused read ends it, recorded.
export async function readConsentLater(job: Job, ctx: WorkerContext, token?: string) {
  const data = readConsentJobSchema.parse(job.data);
  return runForJob(job, token, () => readAndCorrect(ctx, data));
}
