import type { Config } from "../config";
import type { Db } from "../db/client";
import { keysetPages } from "../db/batches";
import type { Queues } from "../queues/queues";
import { QueueName, jobIdPart } from "../queues/names";
import { SYNCABLE_SHOPS } from "../shops/can-sync";

// How back-sync runs are asked for. One run at a time per shop: a run asked for while one waits is
// the same run; asked for while one runs, it comes right after (BullMQ deduplication keeping the
// last). Runs of a shop also hold the shop's back-sync lock, so a reconciliation never overlaps a
// feed run. The admin calls `requestBackSync` after a moderation; the worker's scheduler every
// BACKSYNC_INTERVAL_MS and, with `reconcile`, every BACKSYNC_RECONCILE_MS.

export const BACKSYNC = "backsync";
export const BACKSYNC_RECONCILE = "backsync-reconcile";
export const BACKSYNC_TICK = "backsync-tick";
export const BACKSYNC_RECONCILE_TICK = "backsync-reconcile-tick";

export interface BackSyncJobData {
  shopId: string;
}

/** Asks for a back-sync run of the shop now (after a moderation in our admin, after connect). */
export async function requestBackSync(
  queues: Pick<Queues, "get">,
  shopId: string,
  opts: { reconcile?: boolean; delayMs?: number } = {},
): Promise<void> {
  const name = opts.reconcile ? BACKSYNC_RECONCILE : BACKSYNC;
  await queues.get(QueueName.maintenance).add(name, { shopId } satisfies BackSyncJobData, {
    delay: opts.delayMs ?? 0,
    deduplication: { id: `${name}-${jobIdPart(shopId)}`, keepLastIfActive: true },
    removeOnComplete: true,
  });
}

/**
 * Shops a back-sync runs for: connected to the service, installed, with an offline session. Read a
 * page of shops at a time, each page's sessions in one query: no statement grows with the number
 * of shops (one list of every shop's domain broke SQLite's parameter limit from 997 shops on).
 */
export async function backSyncShops(ctx: { db: Db }): Promise<string[]> {
  const out: string[] = [];
  const pages = keysetPages((after, take) =>
    ctx.db.shop.findMany({
      where: { ...SYNCABLE_SHOPS, ...(after ? { id: { gt: after } } : {}) },
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
  ctx: { queues: Pick<Queues, "get"> },
  ids: readonly string[],
  opts: { reconcile?: boolean } = {},
) {
  for (let i = 0; i < ids.length; i += REQUESTS_AT_ONCE) {
    await Promise.all(ids.slice(i, i + REQUESTS_AT_ONCE).map((id) => requestBackSync(ctx.queues, id, opts)));
  }
}

/** What a scheduler tick does: a run asked for every shop the back-sync runs for. */
export async function requestBackSyncForAll(
  ctx: { db: Db; queues: Pick<Queues, "get"> },
  opts: { reconcile: boolean },
): Promise<{ shops: number }> {
  const ids = await backSyncShops(ctx);
  await requestForEach(ctx, ids, { reconcile: opts.reconcile });
  return { shops: ids.length };
}

/**
 * The two schedulers (idempotent: every worker upserts the same ones), and a run asked for every
 * connected shop at once, so a worker start brings each up to date (definitions included; runs
 * already waiting absorb these). The daily reconciliation's first run is one interval later
 * (connect runs its own). Off when BACKSYNC_INTERVAL_MS is 0 (the test suite's default).
 */
export async function scheduleBackSync(ctx: {
  queues: Pick<Queues, "get">;
  db: Db;
  config: Pick<Config, "BACKSYNC_INTERVAL_MS" | "BACKSYNC_RECONCILE_MS">;
}) {
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
