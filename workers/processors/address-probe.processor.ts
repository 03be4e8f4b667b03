import { DelayedError, type Job } from "bullmq";
import { z } from "zod";
import type { WorkerContext } from "../context";
import { QueueName } from "../../app/.server/queues";
import { probeAddress, scheduleAddressProbe } from "../../app/.server/shops";
import type { ShopifyAddressRefusedError } from "../../app/.server/shopify";

// The worker's side of the IP allowlist's refusals:
// - a job whose Admin API call was refused is parked: moved to the delayed set (no attempt spent)
//   and listed under its shop, so it neither fails nor loops. It sleeps ADMIN_PROBE_MAX_MS at most
//   (a safety net should the probe's hand-over be lost); waking while still refused, it meets the
//   gate (no call to Shopify) and parks again;
// - maintenance/"probe-admin-access" runs the probe; when it passes, the parked jobs are promoted
//   and run at once: syncs resume from their checkpoints, consent reads correct their orders.

const probeJob = z.object({ shop: z.string() });

export async function probeAdminAccess(job: Job, ctx: WorkerContext) {
  const { shop } = probeJob.parse(job.data);
  const result = await probeAddress(
    { adminFor: ctx.probeAdminFor, queues: ctx.queues, refusals: ctx.refusals, config: ctx.config },
    shop,
  );
  if (result.outcome !== "passed") {
    if (result.outcome !== "not-refused")
      ctx.log.warn({ shop, ...result }, "Shopify still refuses this server's address; probing again later");
    return result;
  }
  let resumed = 0;
  for (const parked of result.parked) {
    const queue = ctx.queues.get(parked.queue as QueueName);
    const held = await queue.getJob(parked.jobId);
    if (!held) continue;
    // A job already woken (its safety delay ran out) is waiting or running: nothing to do for it.
    if (await held.isDelayed()) {
      await held
        .promote()
        .catch((e: Error) => ctx.log.warn({ shop, job: parked.jobId, err: e.message }, "parked job not resumed"));
      resumed++;
    }
  }
  ctx.log.info(
    { shop, resumed, refusedForMs: result.refusedForMs },
    "Shopify accepts this server's address again: parked work resumed",
  );
  return { outcome: "passed", resumed };
}

/**
 * Parks a job whose Admin API call Shopify refused (see above). Throws DelayedError, which is what
 * BullMQ wants from a job that moved itself to the delayed set.
 */
export async function parkRefusedJob(
  ctx: WorkerContext,
  queue: QueueName,
  job: Job,
  token: string,
  error: ShopifyAddressRefusedError,
): Promise<never> {
  const shop = error.shop!;
  await ctx.refusals.park(shop, { queue, jobId: String(job.id) });
  // The refusal may have been recorded by another process whose probe was lost with it: ask again
  // (one job per probe step, so this is a no-op when the probe is queued).
  const state = await ctx.refusals.get(shop);
  if (!state) await ctx.refusals.refuse(shop, error.body);
  if (!state?.nextProbeAt || state.nextProbeAt.getTime() < Date.now() - ctx.config.ADMIN_PROBE_MAX_MS) {
    await scheduleAddressProbe(
      { queues: ctx.queues, refusals: ctx.refusals, config: ctx.config },
      shop,
      state?.probes ?? 0,
    );
  }
  await job.moveToDelayed(Date.now() + ctx.config.ADMIN_PROBE_MAX_MS, token);
  ctx.log.info({ shop, queue, job: job.id, name: job.name }, "job parked: Shopify refuses this server's address");
  throw new DelayedError(`parked: ${error.message}`);
}
