import type { Job } from "bullmq";
import { z } from "zod";
import type { WorkerContext } from "../context";
import { runForJob } from "../outcome-adapter";
import { backSyncShop, requestDueBackSyncs } from "../../app/.server/backsync";

// Ratings back into Shopify, as worker jobs on the maintenance queue (see app/.server/backsync/):
// `backsync` (the feed) and `backsync-reconcile` (feed + full reconciliation) per shop, run by
// backsync-job.ts, and the scheduler's tick that asks for them for the shops due (schedule.ts).

const jobData = z.object({ shopId: z.string().min(1) });

export function backSyncJob(opts: { reconcile: boolean }) {
  return async (job: Job, ctx: WorkerContext, token?: string) => {
    const { shopId } = jobData.parse(job.data);
    return runForJob(job, token, () => backSyncShop(ctx, shopId, opts));
  };
}

export function backSyncTick() {
  return async (_job: Job, ctx: Pick<WorkerContext, "queues" | "config">) => requestDueBackSyncs(ctx);
}
