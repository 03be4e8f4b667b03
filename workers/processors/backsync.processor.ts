import type { Job } from "bullmq";
import { z } from "zod";
import type { WorkerContext } from "../context";
import { runForJob } from "../outcome-adapter";
import { backSyncShop } from "../../app/.server/backsync/backsync-job";
import { BACKSYNC_RECONCILE_TICK, BACKSYNC_TICK, requestBackSync } from "../../app/.server/backsync/schedule";
import { QueueName } from "../../app/.server/queues/names";
import { keysetPages } from "../../app/.server/db/batches";

// Ratings back into Shopify, as worker jobs on the maintenance queue (see app/.server/backsync/):
// `backsync` (the feed) and `backsync-reconcile` (feed + full reconciliation) per shop, run by
// backsync-job.ts, and two scheduler ticks that ask for them for every connected shop.

const jobData = z.object({ shopId: z.string().min(1) });

export function backSyncJob(opts: { reconcile: boolean }) {
  return async (job: Job, ctx: WorkerContext, token?: string) => {
    const { shopId } = jobData.parse(job.data);
    return runForJob(job, token, () => backSyncShop(ctx, shopId, opts));
  };
}

/**
 * Shops a back-sync runs for: connected to the service, installed, with an offline session. Read a
 * page of shops at a time, each page's sessions in one query: no statement grows with the number
 * of shops (one list of every shop's domain broke SQLite's parameter limit from 997 shops on).
 */
export async function backSyncShops(ctx: Pick<WorkerContext, "db">): Promise<string[]> {
  const out: string[] = [];
  const pages = keysetPages((after, take) =>
    ctx.db.shop.findMany({
      where: {
        installState: "installed",
        customerKey: { not: null },
        clientSecretEncrypted: { not: null },
        ...(after ? { id: { gt: after } } : {}),
      },
      select: { id: true, domain: true },
      orderBy: { id: "asc" },
      take,
    }),
  );
  for await (const shops of pages) {
    const sessions = await ctx.db.session.findMany({
      where: { isOnline: false, shop: { in: shops.map((s) => s.domain) } },
      select: { shop: true },
    });
    const withSession = new Set(sessions.map((s) => s.shop));
    for (const s of shops) if (withSession.has(s.domain)) out.push(s.id);
  }
  return out;
}

/** Runs asked for at once (each a round trip to Redis): thousands of shops in seconds, not minutes. */
const REQUESTS_AT_ONCE = 50;

async function requestForEach(
  ctx: Pick<WorkerContext, "queues">,
  ids: readonly string[],
  opts: { reconcile?: boolean } = {},
) {
  for (let i = 0; i < ids.length; i += REQUESTS_AT_ONCE) {
    await Promise.all(ids.slice(i, i + REQUESTS_AT_ONCE).map((id) => requestBackSync(ctx.queues, id, opts)));
  }
}

export function backSyncTick(opts: { reconcile: boolean }) {
  return async (_job: Job, ctx: Pick<WorkerContext, "db" | "queues">) => {
    const ids = await backSyncShops(ctx);
    await requestForEach(ctx, ids, { reconcile: opts.reconcile });
    return { shops: ids.length };
  };
}

/**
 * The two schedulers (idempotent: every worker upserts the same ones), and a run asked for every
 * connected shop at once, so a worker start brings each up to date (definitions included; runs
 * already waiting absorb these). The daily reconciliation's first run is one interval later
 * (connect runs its own). Off when BACKSYNC_INTERVAL_MS is 0 (the test suite's default).
 */
export async function scheduleBackSync(ctx: Pick<WorkerContext, "queues" | "config" | "db">) {
  const queue = ctx.queues.get(QueueName.maintenance);
  const every = ctx.config.BACKSYNC_INTERVAL_MS;
  if (every <= 0) {
    await queue.removeJobScheduler(BACKSYNC_TICK);
    await queue.removeJobScheduler(BACKSYNC_RECONCILE_TICK);
    return;
  }
  const opts = { removeOnComplete: true, removeOnFail: 100 };
  await queue.upsertJobScheduler(BACKSYNC_TICK, { every }, { name: BACKSYNC_TICK, opts });
  const daily = ctx.config.BACKSYNC_RECONCILE_MS;
  await queue.upsertJobScheduler(
    BACKSYNC_RECONCILE_TICK,
    { every: daily, startDate: Date.now() + daily },
    { name: BACKSYNC_RECONCILE_TICK, opts },
  );
  await requestForEach(ctx, await backSyncShops(ctx));
}
