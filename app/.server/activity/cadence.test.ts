import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  changesPerHour,
  decayedCount,
  firstPollAt,
  nextPollDelay,
  nextReconcileAt,
  ORDER_REVIEW_CHANCE,
  shopHash,
  steadyCount,
  withChanges,
  type ChangeCount,
} from "./cadence";

const cadence = { activeMs: 50_000, quietMs: 900_000 };
const NOW = Date.parse("2026-11-27T10:00:00Z");

describe("the back-sync's poll cadence", () => {
  const quietShop = { changed: false, activeUntil: null, count: 0 };

  it("GIVEN a shop with no change for ten minutes and fewer than a change every two hours THEN it polls every quiet period: at most four times an hour at 15 minutes", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: steadyCount(0.499), noNaN: true }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (count, sinceActive) => {
          const delay = nextPollDelay(cadence, { changed: false, activeUntil: NOW - sinceActive, count }, NOW);
          expect(delay).toBe(cadence.quietMs);
          expect(3_600_000 / delay).toBeLessThanOrEqual(4);
        },
      ),
    );
  });

  it("GIVEN a change found, an action in the app under way, or a shop with a change every two hours or more THEN the next poll comes one active period later", () => {
    expect(nextPollDelay(cadence, { ...quietShop, changed: true }, NOW)).toBe(50_000);
    expect(nextPollDelay(cadence, { ...quietShop, activeUntil: NOW + 1 }, NOW)).toBe(50_000);
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 1_000, noNaN: true }), (perHour) => {
        expect(nextPollDelay(cadence, { ...quietShop, count: steadyCount(perHour) }, NOW)).toBe(50_000);
      }),
    );
  });

  it("GIVEN any shop THEN its period lies between the active period and an hour", () => {
    fc.assert(
      fc.property(
        fc.record({
          activeMs: fc.integer({ min: 1_000, max: 600_000 }),
          quietMs: fc.integer({ min: 1_000, max: 3_600_000 }),
        }),
        fc.boolean(),
        fc.option(fc.integer({ min: NOW - 86_400_000, max: NOW + 86_400_000 }), { nil: null }),
        fc.double({ min: 0, max: 10_000, noNaN: true }),
        (c, changed, activeUntil, count) => {
          const delay = nextPollDelay(c, { changed, activeUntil, count }, NOW);
          expect(delay).toBeGreaterThanOrEqual(c.activeMs);
          expect(delay).toBeLessThanOrEqual(Math.max(3_600_000, c.activeMs));
        },
      ),
    );
  });

  it("GIVEN changes at a steady rate THEN the decayed count gives that rate back, and an old burst stops counting", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 20, noNaN: true }), (perHour) => {
        // Three days of changes at even intervals, counted one at a time.
        const gap = 3_600_000 / perHour;
        let c: ChangeCount | null = null;
        for (let t = NOW - 3 * 86_400_000; t <= NOW; t += gap) c = withChanges(c, 1, t);
        const seen = changesPerHour(decayedCount(c, NOW));
        expect(seen).toBeGreaterThan(perHour * 0.85);
        expect(seen).toBeLessThan(perHour * 1.25);
      }),
    );
    // Ten reviews in a morning a week ago: quiet today.
    const burst = withChanges(null, 10, NOW - 7 * 86_400_000);
    expect(nextPollDelay(cadence, { ...quietShop, count: decayedCount(burst, NOW) }, NOW)).toBe(cadence.quietMs);
  });

  it("GIVEN a shop with an order a day THEN the delivered orders alone keep it quiet", () => {
    let c: ChangeCount | null = null;
    for (let day = 30; day >= 0; day--) c = withChanges(c, ORDER_REVIEW_CHANCE, NOW - day * 86_400_000);
    expect(changesPerHour(decayedCount(c, NOW))).toBeLessThan(0.1);
    expect(nextPollDelay(cadence, { ...quietShop, count: decayedCount(c, NOW) }, NOW)).toBe(cadence.quietMs);
  });

  it("GIVEN a count stamped later than now (another process's clock) THEN it does not grow", () => {
    expect(decayedCount({ count: 3, at: NOW + 5_000 }, NOW)).toBe(3);
    expect(withChanges({ count: 3, at: NOW + 5_000 }, 1, NOW)).toEqual({ count: 4, at: NOW + 5_000 });
  });

  it("GIVEN 10,000 shops THEN their first polls spread over one active period and their reconciliations over the day", () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `cm${(i * 7919).toString(36)}x${i}`);
    const first = ids.map((id) => firstPollAt(id, cadence, NOW) - NOW);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...first)).toBeLessThan(cadence.activeMs);
    const day = 86_400_000;
    const hours = new Array<number>(24).fill(0);
    for (const id of ids) {
      const at = nextReconcileAt(id, day, NOW);
      expect(at).toBeGreaterThan(NOW);
      expect(at).toBeLessThanOrEqual(NOW + day);
      hours[Math.floor((at - NOW) / 3_600_000)]++;
    }
    // About 417 an hour; none of the hours holds twice its share.
    expect(Math.max(...hours)).toBeLessThan((2 * ids.length) / 24);
    expect(Math.min(...hours)).toBeGreaterThan(ids.length / 24 / 2);
  });

  it("GIVEN a shop THEN its moment of the day is the same from any day, and the next one when this one has passed", () => {
    const day = 86_400_000;
    const at = nextReconcileAt("shop-1", day, NOW);
    expect(nextReconcileAt("shop-1", day, at)).toBe(at + day);
    expect(nextReconcileAt("shop-1", day, at - 1)).toBe(at);
    expect(nextReconcileAt("shop-1", day, NOW + 3 * day)).toBe(at + 3 * day);
    expect(shopHash("shop-1")).toBe(shopHash("shop-1"));
  });
});
