import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { createPollSchedule, pollScheduleKeys } from "./poll-schedule";

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

  it("GIVEN a quiet shop THEN its polls back off to one every quiet period, and a change brings it back to the active pace", async () => {
    const s = schedule();
    await s.enrol(["quiet"], NOW);
    let now = NOW;
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) delays.push(await s.afterRun("quiet", { changed: false }, (now += 1_000)));
    expect(delays).toEqual([100_000, 200_000, 400_000, 800_000, 900_000, 900_000]);
    expect(await s.takeDue(now + 899_999, 10)).toEqual([]);
    expect(await s.takeDue(now + 900_000, 10)).toEqual(["quiet"]);
    expect(await s.afterRun("quiet", { changed: true }, now)).toBe(50_000);
    expect(await s.afterRun("quiet", { changed: false }, now)).toBe(100_000);
  });

  it("GIVEN activity noted for a quiet shop THEN its next poll is at most an active period away, and the active pace holds until the activity ends", async () => {
    const s = schedule();
    await s.enrol(["shop"], NOW);
    for (let i = 0; i < 5; i++) await s.afterRun("shop", { changed: false }, NOW);
    expect(Number(await redis.zscore(pollScheduleKeys(prefix).due, "shop"))).toBe(NOW + 900_000);
    await s.noteActivity("shop", NOW + 3_600_000, NOW);
    expect(Number(await redis.zscore(pollScheduleKeys(prefix).due, "shop"))).toBe(NOW + 50_000);
    // An earlier end noted later does not shorten it.
    await s.noteActivity("shop", NOW + 60_000, NOW);
    expect(await s.size(NOW + 3_599_999)).toEqual({ shops: 1, active: 1 });
    expect(await s.afterRun("shop", { changed: false }, NOW + 3_000_000)).toBe(50_000);
    expect(await s.afterRun("shop", { changed: false }, NOW + 3_600_000)).toBe(100_000);
    expect(await s.size(NOW + 3_600_000)).toEqual({ shops: 1, active: 0 });
    // A shop noted before it was ever enrolled (a delivered order just after connect) joins the schedule.
    await s.noteActivity("new", NOW + 3_600_000, NOW);
    expect(await s.takeDue(NOW + 50_000, 10)).toEqual(["new"]);
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
    await s.afterRun("gone", { changed: false }, NOW);
    await s.forget("gone");
    for (const key of Object.values(pollScheduleKeys(prefix))) expect(await redis.exists(key)).toBe(0);
  });
});
