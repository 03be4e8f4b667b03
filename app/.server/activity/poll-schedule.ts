import type { Redis } from "ioredis";
import type { Config } from "../config";
import type { Queues } from "../queues";
import {
  firstPollAt,
  HOUR_MS,
  nextPollDelay,
  nextReconcileAt,
  QUIET_AFTER_MS,
  RATE_HALF_LIFE_MS,
  type Cadence,
} from "./cadence";

// When each shop's back-sync is due, in Redis, so that the periodic tick reads only the shops due
// now (a range of a sorted set) instead of every shop: its cost follows activity, not installs.
// - due (sorted set): shop id → when its next poll is due (ms);
// - changes (hash): shop id → its decayed count of changes and when it was counted ("count:at",
//   cadence.ts), which the app's own signals and each run's changes add to;
// - active (sorted set): shop id → until when it counts as active (a change, an action in the app);
// - reconcile (sorted set): shop id → its next full reconciliation, at the shop's own moment of
//   the period.
// The keys share one hash tag, so a Redis Cluster keeps them in one slot (a run's end writes two).

export interface PollSchedule {
  /** Adds shops not scheduled yet: first poll within an active period, reconciliation at their moment. */
  enrol(shopIds: readonly string[], now: number): Promise<number>;
  /** The shop counts as active until `until`; its next poll is at most one active period away. */
  noteActivity(shopId: string, until: number, now: number): Promise<void>;
  /**
   * Changes the app saw itself (a shopper's review: 1; a delivered order: a fraction) added to the
   * shop's rate; `pollNow` makes the shop due at once, and active for the quiet threshold.
   */
  noteChanges(shopId: string, changes: number, now: number, opts?: { pollNow?: boolean }): Promise<void>;
  /**
   * Up to `limit` shops due by `now`, each leased for a quiet period (a run that never reports
   * back, its job lost, comes round again then): the tick asks one run for each.
   */
  takeDue(now: number, limit: number): Promise<string[]>;
  /** Up to `limit` shops whose reconciliation is due; each moves on to its moment of the next period. */
  takeDueReconciles(now: number, limit: number): Promise<string[]>;
  /** After a run: its changes counted, and the next poll, sooner when the shop is active or busy. */
  afterRun(shopId: string, run: { changed: boolean; changes: number }, now: number): Promise<number>;
  /** A shop the back-sync no longer runs for (disconnected, uninstalled). */
  forget(shopId: string): Promise<void>;
  /** How many shops are scheduled, and how many of them count as active at `now`. */
  size(now: number): Promise<{ shops: number; active: number }>;
}

const TAKE_DUE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[3], id) end
return ids`;

// Each taken shop moves on by whole periods, to its first moment after now.
const TAKE_RECONCILES = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local now, period, out = tonumber(ARGV[1]), tonumber(ARGV[3]), {}
for i = 1, #ids, 2 do
  local at = tonumber(ids[i + 1])
  at = at + (math.floor((now - at) / period) + 1) * period
  redis.call('ZADD', KEYS[1], at, ids[i])
  out[#out + 1] = ids[i]
end
return out`;

// The count decays and grows in one step (cadence.ts's withChanges), whichever process adds to it;
// returns the count and the shop's `active` score.
const ADD_CHANGES = `
local now, added, half = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local count, at = 0, now
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v then
  local c, a = string.match(v, '^([^:]+):([^:]+)$')
  at = math.max(now, tonumber(a))
  count = tonumber(c) * 2 ^ (-math.max(0, now - tonumber(a)) / half)
end
count = count + added
if added > 0 or v then redis.call('HSET', KEYS[1], ARGV[1], string.format('%.17g', count) .. ':' .. string.format('%.17g', at)) end
return { string.format('%.17g', count), redis.call('ZSCORE', KEYS[2], ARGV[1]) or false }`;

export function pollScheduleKeys(prefix: string) {
  const base = `${prefix}:{backsync}`;
  return {
    due: `${base}:due`,
    changes: `${base}:changes`,
    active: `${base}:active`,
    reconcile: `${base}:reconcile`,
    /** The quiet back-off's delays, before polls followed the rate (2026-11): only removed. */
    delay: `${base}:delay`,
  };
}

export function createPollSchedule(
  redis: Redis,
  prefix: string,
  cadence: Cadence & { reconcileMs: number },
): PollSchedule {
  const keys = pollScheduleKeys(prefix);
  const addChanges = async (shopId: string, changes: number, now: number) => {
    const [count, until] = (await redis.eval(
      ADD_CHANGES,
      2,
      keys.changes,
      keys.active,
      shopId,
      now,
      changes,
      RATE_HALF_LIFE_MS,
    )) as [string, string | null];
    return { count: Number(count), activeUntil: until === null ? null : Number(until) };
  };
  return {
    async enrol(shopIds, now) {
      if (!shopIds.length) return 0;
      const due = shopIds.flatMap((id) => [firstPollAt(id, cadence, now), id]);
      const reconcile = shopIds.flatMap((id) => [nextReconcileAt(id, cadence.reconcileMs, now), id]);
      const [[, added]] = (await redis
        .multi()
        .zadd(keys.due, "NX", ...due)
        .zadd(keys.reconcile, "NX", ...reconcile)
        .exec()) as [[Error | null, number]];
      return added;
    },

    async noteActivity(shopId, until, now) {
      await redis
        .multi()
        .zadd(keys.active, "GT", until, shopId)
        .zadd(keys.due, "LT", now + cadence.activeMs, shopId)
        .zadd(keys.reconcile, "NX", nextReconcileAt(shopId, cadence.reconcileMs, now), shopId)
        .exec();
    },

    async takeDue(now, limit) {
      return (await redis.eval(TAKE_DUE, 1, keys.due, now, limit, now + cadence.quietMs)) as string[];
    },

    async takeDueReconciles(now, limit) {
      return (await redis.eval(TAKE_RECONCILES, 1, keys.reconcile, now, limit, cadence.reconcileMs)) as string[];
    },

    async noteChanges(shopId, changes, now, opts = {}) {
      await addChanges(shopId, changes, now);
      if (!opts.pollNow) return;
      await redis
        .multi()
        .zadd(keys.active, "GT", now + QUIET_AFTER_MS, shopId)
        .zadd(keys.due, "LT", now, shopId)
        .zadd(keys.reconcile, "NX", nextReconcileAt(shopId, cadence.reconcileMs, now), shopId)
        .exec();
    },

    async afterRun(shopId, run, now) {
      const shop = await addChanges(shopId, run.changes, now);
      const next = nextPollDelay(cadence, { ...shop, changed: run.changed }, now);
      // A signal noted between the read and this write is kept in `active` and shortens the poll
      // after this one; a moderation in the app asks its own run at once.
      const write = redis.multi().zadd(keys.due, now + next, shopId);
      if (run.changed) write.zadd(keys.active, "GT", now + QUIET_AFTER_MS, shopId);
      else if (shop.activeUntil !== null && shop.activeUntil <= now) write.zrem(keys.active, shopId);
      await write.exec();
      return next;
    },

    async forget(shopId) {
      await redis
        .multi()
        .zrem(keys.due, shopId)
        .hdel(keys.changes, shopId)
        .hdel(keys.delay, shopId)
        .zrem(keys.active, shopId)
        .zrem(keys.reconcile, shopId)
        .exec();
    },

    async size(now) {
      const [[, shops], [, active]] = (await redis
        .multi()
        .zcard(keys.due)
        .zcount(keys.active, `(${now}`, "+inf")
        .exec()) as [[Error | null, number], [Error | null, number]];
      return { shops, active };
    },
  };
}

/** The poll schedule of this deployment (its Redis and prefix, its configured periods). */
export function pollScheduleOf(queues: Pick<Queues, "redis" | "prefix">, config: ScheduleConfig): PollSchedule {
  return createPollSchedule(queues.redis, queues.prefix, cadenceOf(config));
}

export type ScheduleConfig = Pick<Config, "BACKSYNC_INTERVAL_MS" | "BACKSYNC_QUIET_MS" | "BACKSYNC_RECONCILE_MS">;

export function cadenceOf(config: ScheduleConfig) {
  // With the scheduler off (0, the test suite's default) runs come only when asked for; the
  // schedule still records activity, at the default period.
  const activeMs = config.BACKSYNC_INTERVAL_MS || DEFAULT_ACTIVE_MS;
  return {
    activeMs,
    // Never above an hour, whatever the configuration says.
    quietMs: Math.max(Math.min(config.BACKSYNC_QUIET_MS, HOUR_MS), activeMs),
    reconcileMs: config.BACKSYNC_RECONCILE_MS,
  };
}

const DEFAULT_ACTIVE_MS = 50_000;
