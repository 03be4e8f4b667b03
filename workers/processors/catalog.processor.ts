import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { runForJob } from "../outcome-adapter";
import { flushShopCatalog } from "../../app/.server/catalog";
import { flushJobSchema } from "../../app/.server/jobs";

// catalog/"flush": one shop's coalesced changes out to the service (app/.server/catalog/flush.ts).
// Started before its changes are due, or met with the service's 429, the job waits in the delayed
// set instead of spending an attempt.
export async function flushCatalog(job: Job, ctx: WorkerContext, token?: string) {
  const data = flushJobSchema.parse(job.data);
  return runForJob(job, token, () => flushShopCatalog(ctx, data, token !== undefined));
}
