import { GROUPS_MAX_AGE_MS } from "../../app/.server/backsync/group-membership";
import { SHOP_DATA_MAX_AGE_MS } from "../../app/.server/backsync/backsync";
import { nextPollDelay, ORDER_REVIEW_CHANCE, QUIET_AFTER_MS, steadyCount } from "../../app/.server/activity/cadence";
import { cadenceOf, createPollSchedule, pollScheduleKeys } from "../../app/.server/activity/poll-schedule";
import { tickEveryMs } from "../../app/.server/backsync/schedule";
import { configSchema } from "../../app/.server/config";
import { deletePrefix, testRedis, uniquePrefix } from "../helpers/redis";
import { percentile, progress, round, seededRandom } from "./measure";
import type { BenchResult } from "./report";

// The back-sync's cost and latency over a fleet of shops with a realistic mix, on simulated time:
// the real poll schedule (poll-schedule.ts on Redis, cadence.ts, the tick's period) decides when
// each shop is polled; the shops' orders, reviews and moderations are drawn at random (seeded);
// each poll is charged the service calls backsync.ts makes for what it finds (a quiet poll: the
// feed; with a change or once an hour: the groups and the store's three figures; a summary per
// changed product; a daily reconciliation: the product report). What this cannot see, the real
// run's duration, is taken as RUN_MS (the backsync-latency scenario measures it on the real stack).
//   npm run bench -- --scenario fleet --shops 10000 --hours 6

const HOUR = 3_600_000;
/** A back-sync run's duration, from the tick taking the shop to the metafield written. */
const RUN_MS = 3_000;
/** Calls of a daily reconciliation (the product report, one page for most shops). */
const RECONCILE_CALLS = 2;

interface Kind {
  name: string;
  share: number;
  ordersPerDay: number;
  reviewsPerHour: number;
}

// Most shops sold nothing this month; a quarter sells about an order a day (a review every ten days
// or so); a few sell hundreds a day. Reviews per order about 0.1 (ORDER_REVIEW_CHANCE).
const MIX: Kind[] = [
  { name: "no orders in a month", share: 0.7, ordersPerDay: 0, reviewsPerHour: 0.2 / (30 * 24) },
  { name: "about an order a day", share: 0.25, ordersPerDay: 1, reviewsPerHour: 0.1 / 24 },
  { name: "tens of orders a day", share: 0.045, ordersPerDay: 20, reviewsPerHour: 2 / 24 },
  { name: "busy (a review an hour or more)", share: 0.005, ordersPerDay: 300, reviewsPerHour: 1.25 },
];
/** Reviews written through the storefront (the proxy: a signal the app sees); the rest at the service. */
const THROUGH_PROXY = 0.3;
/** Reviews published on arrival by the service's auto-publish; the rest moderated later. */
const AUTO_PUBLISHED = 0.5;
/** Of the moderations by hand, those done in our admin (a run at once); the rest at the service. */
const IN_OUR_ADMIN = 0.2;
const MODERATION_DELAY_MEAN = 2 * HOUR;

type Event =
  | { at: number; shop: number; kind: "order" }
  | { at: number; shop: number; kind: "proxy-review" }
  | { at: number; shop: number; kind: "moderated"; by: "service" | "admin" };

interface Shop {
  id: string;
  kind: Kind;
  /** Moderations at the service not yet seen by a poll (their times). */
  unseen: number[];
  groupsReadAt: number;
  figuresReadAt: number;
}

export async function runFleetCadenceBench(opts: {
  shops: number;
  hours: number;
  seed: number;
}): Promise<BenchResult[]> {
  const redis = testRedis();
  const prefix = uniquePrefix("bench-fleet");
  // The deployment's defaults.
  const config = {
    BACKSYNC_INTERVAL_MS: configSchema.shape.BACKSYNC_INTERVAL_MS.parse(undefined),
    BACKSYNC_QUIET_MS: configSchema.shape.BACKSYNC_QUIET_MS.parse(undefined),
    BACKSYNC_RECONCILE_MS: configSchema.shape.BACKSYNC_RECONCILE_MS.parse(undefined),
  };
  const cadence = cadenceOf(config);
  const schedule = createPollSchedule(redis, prefix, cadence);
  const random = seededRandom(opts.seed);
  const exp = (mean: number) => -Math.log(1 - random()) * mean;
  const t0 = Date.parse("2026-11-02T00:00:00Z");
  const end = t0 + opts.hours * HOUR;
  try {
    // The fleet, each shop with the rate a month of its own history would have given it.
    const shops: Shop[] = [];
    const events: Event[] = [];
    for (const kind of MIX) {
      const n = Math.round(kind.share * opts.shops);
      for (let i = 0; i < n; i++) {
        const index = shops.length;
        // A previous hour's reads are spread, as a running fleet's are.
        const lastRead = t0 - random() * HOUR;
        shops.push({ id: `shop-${index}`, kind, unseen: [], groupsReadAt: lastRead, figuresReadAt: lastRead });
        const drawn = (perHour: number, make: (at: number) => void) => {
          if (perHour <= 0) return;
          for (let at = t0 + exp(HOUR / perHour); at < end; at += exp(HOUR / perHour)) make(at);
        };
        drawn(kind.ordersPerDay / 24, (at) => events.push({ at, shop: index, kind: "order" }));
        drawn(kind.reviewsPerHour, (at) => {
          if (random() < THROUGH_PROXY) events.push({ at, shop: index, kind: "proxy-review" });
          if (random() < AUTO_PUBLISHED) return events.push({ at, shop: index, kind: "moderated", by: "service" });
          const by = random() < IN_OUR_ADMIN ? "admin" : "service";
          events.push({ at: at + exp(MODERATION_DELAY_MEAN), shop: index, kind: "moderated", by });
        });
      }
    }
    events.sort((a, b) => a.at - b.at);
    const ids = shops.map((s) => s.id);
    for (let i = 0; i < ids.length; i += 1000) await schedule.enrol(ids.slice(i, i + 1000), t0 - cadence.quietMs);
    // Steady state: each shop's count as weeks at its rate leave it, and a first poll somewhere in
    // its period (the schedule's own first poll is within an active period of joining).
    await Promise.all(
      shops.map(async (s, i) => {
        const perHour = s.kind.reviewsPerHour * (1 + THROUGH_PROXY) + (s.kind.ordersPerDay / 24) * ORDER_REVIEW_CHANCE;
        const count = steadyCount(perHour);
        await schedule.noteChanges(s.id, count, t0 - 1);
        const period = nextPollDelay(cadence, { changed: false, activeUntil: null, count }, t0);
        await redis.zadd(pollScheduleKeys(prefix).due, t0 + ((i * 7919) % period), s.id);
      }),
    );
    await schedule.takeDueReconciles(t0, 1_000_000);

    let calls = 0;
    let polls = 0;
    let reconciles = 0;
    const latency = { busy: [] as number[], other: [] as number[], admin: [] as number[] };
    const run = async (i: number, now: number, reason: "poll" | "admin") => {
      const s = shops[i]!;
      const seen = s.unseen.filter((at) => at <= now);
      s.unseen = s.unseen.filter((at) => at > now);
      const done = now + RUN_MS;
      const busy = s.kind.reviewsPerHour >= 1;
      for (const at of seen) (busy ? latency.busy : latency.other).push(done - at);
      const changed = seen.length > 0 || reason === "admin";
      calls += 1; // the feed
      if (changed || now - s.groupsReadAt >= GROUPS_MAX_AGE_MS) {
        calls += 1;
        s.groupsReadAt = now;
      }
      if (changed || now - s.figuresReadAt >= SHOP_DATA_MAX_AGE_MS) {
        calls += 3;
        s.figuresReadAt = now;
      }
      calls += seen.length; // a summary per changed product
      polls++;
      // As backsync-job.ts: the next poll counts from this one's start.
      await schedule.afterRun(s.id, { changed, changes: seen.length }, now);
    };

    const tick = tickEveryMs(cadence.activeMs);
    let next = 0;
    let lastReport = t0;
    for (let now = t0; now < end; now += tick) {
      for (; next < events.length && events[next]!.at <= now; next++) {
        const e = events[next]!;
        const id = shops[e.shop]!.id;
        if (e.kind === "order") await schedule.noteChanges(id, ORDER_REVIEW_CHANCE, e.at);
        else if (e.kind === "proxy-review") await schedule.noteChanges(id, 1, e.at, { pollNow: true });
        else if (e.by === "service") shops[e.shop]!.unseen.push(e.at);
        else {
          // requestBackSync: the shop active for ten minutes, a run at once.
          await schedule.noteActivity(id, e.at + QUIET_AFTER_MS, e.at);
          latency.admin.push(RUN_MS);
          await run(e.shop, e.at, "admin");
        }
      }
      for (let due = await schedule.takeDue(now, 500); due.length; due = await schedule.takeDue(now, 500))
        await Promise.all(due.map((id) => run(Number(id.slice(5)), now, "poll")));
      const reconciling = await schedule.takeDueReconciles(now, 10_000);
      reconciles += reconciling.length;
      calls += reconciling.length * RECONCILE_CALLS;
      if (now - lastReport >= HOUR) {
        lastReport = now;
        progress(`fleet: ${round((now - t0) / HOUR)} h simulated, ${calls} calls`);
      }
    }
    const seconds = (end - t0) / 1000;
    const max = (v: number[]) => v.reduce((a, b) => Math.max(a, b), 0);
    const pct = (v: number[], p: number) => (v.length ? round(percentile(v, p) / 1000) : 0);
    const busyMax = max(latency.busy) / 1000;
    const otherMax = max(latency.other) / 1000;
    const callsPerSecond = calls / seconds;
    const perShopHour = calls / opts.shops / opts.hours;
    return [
      {
        scenario: "back-sync fleet: service calls and moderation latency",
        figures: {
          shops: opts.shops,
          "fleet mix": MIX.map((k) => `${round(k.share * 100, 1)}% ${k.name}`).join("; "),
          "simulated hours": opts.hours,
          "service calls/s, total": round(callsPerSecond, 2),
          "service calls per shop per hour": round(perShopHour, 2),
          polls: polls,
          "reconciliations (2 calls each)": reconciles,
          "moderations at the service seen (busy shops / others)": `${latency.busy.length} / ${latency.other.length}`,
          "moderation → storefront, busy shops: p50 / p99 / max (s)": `${pct(latency.busy, 50)} / ${pct(latency.busy, 99)} / ${round(busyMax)}`,
          "moderation → storefront, other shops: p50 / p99 / max (s)": `${pct(latency.other, 50)} / ${pct(latency.other, 99)} / ${round(otherMax)}`,
          "moderations in our admin (a run at once, s)": `${latency.admin.length} at ${RUN_MS / 1000}`,
          "assumed run duration (s)": RUN_MS / 1000,
          "active / quiet period, tick (s)": `${cadence.activeMs / 1000} / ${cadence.quietMs / 1000}, ${tick / 1000}`,
          model: "real poll schedule on Redis, simulated time and shops",
        },
        targets: {
          "service calls/s for the fleet": { value: round(callsPerSecond, 2), limit: 30, ok: callsPerSecond <= 30 },
          "moderation at the service → storefront, a review an hour (max s)": {
            value: round(busyMax),
            limit: 60,
            ok: busyMax <= 60,
          },
          "moderation at the service → storefront, other shops (max s)": {
            value: round(otherMax),
            limit: 900,
            ok: otherMax <= 900,
          },
        },
      },
    ];
  } finally {
    await deletePrefix(prefix);
    redis.disconnect();
  }
}
