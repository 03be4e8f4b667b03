import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { cadenceOf, createPollSchedule, pollScheduleKeys } from "./poll-schedule";
import { ORDER_REVIEW_CHANCE, withChanges } from "./cadence";
import { tickEveryMs } from "../backsync/schedule";
import { configSchema } from "../config";

// The poll schedule on a real Redis: what the tick takes, when a shop comes round again.

const redis = testRedis();
let prefix = uniquePrefix("poll-schedule");
const DAY = 86_400_000;
const cadence = { activeMs: 50_000, quietMs: 900_000, reconcileMs: DAY };
const NOW = Date.parse("2026-11-27T10:00:00Z");
const schedule = () => createPollSchedule(redis, prefix, cadence);

beforeEach(async () => {
  await deletePrefix(prefix);
  prefix = uniquePrefix("poll-schedule");
});
afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
});

describe("the back-sync's poll schedule", () => {
  it("GIVEN the default configuration THEN its periods, the tick's delay and a run of up to 5 s keep the promises: 60 s for a busy shop, 15 minutes for any other, about four polls an hour", () => {
    const c = cadenceOf({
      BACKSYNC_INTERVAL_MS: configSchema.shape.BACKSYNC_INTERVAL_MS.parse(undefined),
      BACKSYNC_QUIET_MS: configSchema.shape.BACKSYNC_QUIET_MS.parse(undefined),
      BACKSYNC_RECONCILE_MS: configSchema.shape.BACKSYNC_RECONCILE_MS.parse(undefined),
    });
    const late = tickEveryMs(c.activeMs) + 5_000;
    expect(c.activeMs + late).toBeLessThanOrEqual(60_000);
    expect(c.quietMs + late).toBeLessThanOrEqual(900_000);
    expect(3_600_000 / c.quietMs).toBeLessThan(4.1);
    // Never above an hour, whatever is configured.
    expect(
      cadenceOf({ BACKSYNC_INTERVAL_MS: 50_000, BACKSYNC_QUIET_MS: 86_400_000, BACKSYNC_RECONCILE_MS: DAY }).quietMs,
    ).toBe(3_600_000);
  });

  it("GIVEN shops enrolled THEN each is due once within an active period, and a second enrolment keeps their times", async () => {
    const s = schedule();
    const ids = Array.from({ length: 1_200 }, (_, i) => `shop-${i}`);
    expect(await s.enrol(ids, NOW)).toBe(1_200);
    expect(await s.enrol(ids, NOW + 40_000)).toBe(0);
    expect(await s.takeDue(NOW - 1, 500)).toEqual([]);
    const taken: string[] = [];
    for (let page = await s.takeDue(NOW + cadence.activeMs, 500); page.length;) {
      taken.push(...page);
      page = await s.takeDue(NOW + cadence.activeMs, 500);
    }
    expect(taken.sort()).toEqual([...ids].sort());
    // Taken shops are leased: nothing more is due until the lease ends, when all come round.
    expect(await s.takeDue(NOW + cadence.activeMs + 1_000, 500)).toEqual([]);
    expect(await s.size(NOW)).toEqual({ shops: 1_200, active: 0 });
  });

  it("GIVEN a quiet shop THEN it polls every quiet period, and a change brings it to the active pace for ten minutes", async () => {
    const s = schedule();
    await s.enrol(["quiet"], NOW);
    expect(await s.afterRun("quiet", { changed: false, changes: 0 }, NOW)).toBe(900_000);
    expect(await s.takeDue(NOW + 899_999, 10)).toEqual([]);
    expect(await s.takeDue(NOW + 900_000, 10)).toEqual(["quiet"]);
    expect(await s.afterRun("quiet", { changed: true, changes: 1 }, NOW)).toBe(50_000);
    expect(await s.afterRun("quiet", { changed: false, changes: 0 }, NOW + 599_999)).toBe(50_000);
    expect(await s.afterRun("quiet", { changed: false, changes: 0 }, NOW + 600_000)).toBe(900_000);
    expect(await s.size(NOW + 600_000)).toEqual({ shops: 1, active: 0 });
  });

  it("GIVEN a shop whose runs find a change an hour THEN it stays at the active pace between its changes, and goes quiet once they stop", async () => {
    const s = schedule();
    await s.enrol(["busy"], NOW);
    let now = NOW - 3 * DAY;
    // Three days of a change an hour, each found by a run.
    for (; now < NOW; now += 3_600_000) await s.afterRun("busy", { changed: true, changes: 1 }, now);
    expect(await s.afterRun("busy", { changed: false, changes: 0 }, NOW + 1_800_000)).toBe(50_000);
    // A day and a half without one: quiet again.
    expect(await s.afterRun("busy", { changed: false, changes: 0 }, NOW + 1.5 * DAY)).toBe(900_000);
  });

  it("GIVEN activity noted for a quiet shop THEN its next poll is at most an active period away, and the active pace holds until the activity ends", async () => {
    const s = schedule();
    await s.enrol(["shop"], NOW);
    await s.afterRun("shop", { changed: false, changes: 0 }, NOW);
    expect(Number(await redis.zscore(pollScheduleKeys(prefix).due, "shop"))).toBe(NOW + 900_000);
    await s.noteActivity("shop", NOW + 600_000, NOW);
    expect(Number(await redis.zscore(pollScheduleKeys(prefix).due, "shop"))).toBe(NOW + 50_000);
    // An earlier end noted later does not shorten it.
    await s.noteActivity("shop", NOW + 60_000, NOW);
    expect(await s.size(NOW + 599_999)).toEqual({ shops: 1, active: 1 });
    expect(await s.afterRun("shop", { changed: false, changes: 0 }, NOW + 500_000)).toBe(50_000);
    expect(await s.afterRun("shop", { changed: false, changes: 0 }, NOW + 600_000)).toBe(900_000);
    expect(await s.size(NOW + 600_000)).toEqual({ shops: 1, active: 0 });
    // A shop noted before it was ever enrolled (an action just after connect) joins the schedule.
    await s.noteActivity("new", NOW + 600_000, NOW);
    expect(await s.takeDue(NOW + 50_000, 10)).toEqual(["new"]);
  });

  it("GIVEN a change the app saw (a shopper's review) THEN the shop is due at once and counted; a delivered order only adds a fraction", async () => {
    const s = schedule();
    const keys = pollScheduleKeys(prefix);
    await s.enrol(["shop"], NOW);
    await s.afterRun("shop", { changed: false, changes: 0 }, NOW);
    await s.noteChanges("shop", ORDER_REVIEW_CHANCE, NOW + 1_000);
    expect(Number(await redis.zscore(keys.due, "shop"))).toBe(NOW + 900_000);
    expect((await redis.hget(keys.changes, "shop"))!.split(":").map(Number)).toEqual([
      ORDER_REVIEW_CHANCE,
      NOW + 1_000,
    ]);
    await s.noteChanges("shop", 1, NOW + 2_000, { pollNow: true });
    expect(await s.takeDue(NOW + 2_000, 10)).toEqual(["shop"]);
    expect(await s.size(NOW + 2_000)).toEqual({ shops: 1, active: 1 });
    const [count, at] = (await redis.hget(keys.changes, "shop"))!.split(":").map(Number);
    expect(at).toBe(NOW + 2_000);
    // The same count as cadence.ts computes: the Lua side and the pure one agree.
    const pure = withChanges(withChanges(null, ORDER_REVIEW_CHANCE, NOW + 1_000), 1, NOW + 2_000);
    expect(count).toBeCloseTo(pure.count, 12);
  });

  it("GIVEN reconciliations due THEN each shop is taken once a period, at its own moment", async () => {
    const s = schedule();
    const ids = Array.from({ length: 600 }, (_, i) => `shop-${i}`);
    await s.enrol(ids, NOW);
    const byHour: number[] = [];
    for (let h = 1; h <= 24; h++) {
      let n = 0;
      for (let page = await s.takeDueReconciles(NOW + h * 3_600_000, 500); page.length;) {
        n += page.length;
        page = await s.takeDueReconciles(NOW + h * 3_600_000, 500);
      }
      byHour.push(n);
    }
    expect(byHour.reduce((a, b) => a + b, 0)).toBe(600);
    expect(Math.max(...byHour)).toBeLessThan(60);
    // A worker away for three days takes each shop once, not three times, and moves it past now.
    const later = NOW + 4 * DAY;
    const taken = await s.takeDueReconciles(later, 1_000);
    expect(taken).toHaveLength(600);
    expect(await s.takeDueReconciles(later, 1_000)).toEqual([]);
  });

  it("GIVEN a shop forgotten THEN nothing of it is left", async () => {
    const s = schedule();
    await s.enrol(["gone"], NOW);
    await s.noteActivity("gone", NOW + 1_000, NOW);
    await s.afterRun("gone", { changed: true, changes: 2 }, NOW);
    await s.forget("gone");
    for (const key of Object.values(pollScheduleKeys(prefix))) expect(await redis.exists(key)).toBe(0);
    await redis.hset(pollScheduleKeys(prefix).delay, "gone", 100_000);
    await s.forget("gone");
    expect(await redis.exists(pollScheduleKeys(prefix).delay)).toBe(0);
  });
});
