import { type Db, keysetPages } from "../db";
import type { Queues } from "../queues";
import { enqueueBackSync, scheduleBackSyncTick } from "../jobs";
import { SYNCABLE_SHOPS } from "../shops";
import { pollScheduleOf, QUIET_AFTER_MS, type ScheduleConfig } from "../activity";
import { groupsReadKey } from "./group-membership";

// How back-sync runs are asked for. One run at a time per shop: a run asked for while one waits is
// the same run; asked for while one runs, it comes right after (jobs/enqueue.ts). Runs of a shop
// also hold the shop's back-sync lock, so a reconciliation never overlaps a feed run. The admin
// calls `requestBackSync` after a moderation or a group change (a run now, and the shop polled every
// active period for the next ten minutes); the worker's tick asks runs for the shops the poll
// schedule says are due (activity/poll-schedule.ts: each poll's timing follows the shop's rate of
// changes, cadence.ts), and reconciliations for the shops whose moment of the day has come.

/**
 * Asks for a back-sync run of the shop now (after a moderation or a change in our admin, after
 * connect): the merchant is at work, so the shop is polled every active period for the next ten
 * minutes, and the run reads the groups even when the feed has nothing (a group changed).
 */
export async function requestBackSync(
  ctx: { queues: Pick<Queues, "get" | "redis" | "prefix" | "ready">; config: ScheduleConfig },
  shopId: string,
  opts: { reconcile?: boolean; delayMs?: number } = {},
): Promise<void> {
  // A producer's connection queues no command before it is up (BullMQ's adds wait by themselves).
  await ctx.queues.ready();
  const now = Date.now();
  await pollScheduleOf(ctx.queues, ctx.config).noteActivity(shopId, now + QUIET_AFTER_MS, now);
  await ctx.queues.redis.del(groupsReadKey(ctx.queues.prefix, shopId));
  await enqueueBackSync(ctx.queues, shopId, opts.reconcile ?? false, opts.delayMs ?? 0);
}

/**
 * Shops a back-sync runs for: connected to the service, installed, with an offline session. Read a
 * page of shops at a time, each page's sessions in one query: no statement grows with the number
 * of shops (one list of every shop's domain broke SQLite's parameter limit from 997 shops on).
 */
export async function* backSyncShopPages(ctx: { db: Db }): AsyncGenerator<string[]> {
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
    yield shops.filter((s) => withSession.has(s.domain)).map((s) => s.id);
  }
}

/** Runs asked for at once (each a round trip to Redis): thousands of shops in seconds, not minutes. */
const REQUESTS_AT_ONCE = 50;
/** Shops taken from the schedule per round trip: a tick's reads and writes stay bounded. */
const TAKE_AT_ONCE = 500;

async function requestForEach(ctx: { queues: Pick<Queues, "get"> }, ids: readonly string[], reconcile: boolean) {
  for (let i = 0; i < ids.length; i += REQUESTS_AT_ONCE) {
    await Promise.all(ids.slice(i, i + REQUESTS_AT_ONCE).map((id) => enqueueBackSync(ctx.queues, id, reconcile)));
  }
}

/**
 * What a scheduler tick does: a run for each shop due now, a reconciliation for each shop whose
 * moment of the day has come. Nothing here grows with the number of installed shops.
 */
export async function requestDueBackSyncs(
  ctx: { queues: Pick<Queues, "get" | "redis" | "prefix">; config: ScheduleConfig },
  now = Date.now(),
): Promise<{ shops: number; reconciles: number }> {
  const schedule = pollScheduleOf(ctx.queues, ctx.config);
  const requestAll = async (take: () => Promise<string[]>, reconcile: boolean) => {
    for (let asked = 0; ;) {
      const due = await take();
      await requestForEach(ctx, due, reconcile);
      asked += due.length;
      if (due.length < TAKE_AT_ONCE) return asked;
    }
  };
  const shops = await requestAll(() => schedule.takeDue(now, TAKE_AT_ONCE), false);
  const reconciles = await requestAll(() => schedule.takeDueReconciles(now, TAKE_AT_ONCE), true);
  return { shops, reconciles };
}

/**
 * How often the tick looks for due shops: a tenth of the active period, so a busy shop's poll is
 * late by at most 5 s at the default period, and a moderation reaches it within the minute.
 */
export function tickEveryMs(activeMs: number): number {
  return Math.max(1_000, Math.round(activeMs / 10));
}

/**
 * The tick's scheduler (idempotent: every worker upserts the same one), and every shop the
 * back-sync runs for put in the poll schedule (those already in it keep their times), paged: a
 * worker start brings a new shop up to date within one active period, and asks nothing of the
 * others. Off when BACKSYNC_INTERVAL_MS is 0 (the test suite's default).
 */
export async function scheduleBackSync(ctx: {
  queues: Pick<Queues, "get" | "redis" | "prefix">;
  db: Db;
  config: ScheduleConfig;
}) {
  // The daily reconciliation had a tick of its own, for every shop at once (before 2026-11): it goes.
  const every = ctx.config.BACKSYNC_INTERVAL_MS;
  await scheduleBackSyncTick(ctx.queues, every > 0 ? tickEveryMs(every) : null);
  if (every <= 0) return { enrolled: 0 };
  const schedule = pollScheduleOf(ctx.queues, ctx.config);
  let enrolled = 0;
  for await (const ids of backSyncShopPages(ctx)) enrolled += await schedule.enrol(ids, Date.now());
  return { enrolled };
}
