import { describe, expect, it } from "vitest";
import { firstPollAt, nextPollDelay, nextReconcileAt, shopHash } from "./cadence";

const cadence = { activeMs: 50_000, quietMs: 900_000 };
const NOW = Date.parse("2026-11-27T10:00:00Z");

describe("the back-sync's poll cadence", () => {
  it("GIVEN polls that find nothing THEN each waits twice as long as the last, up to the quiet pace", () => {
    const delays: number[] = [];
    let delayMs: number | null = null;
    for (let i = 0; i < 8; i++) {
      delayMs = nextPollDelay(cadence, { delayMs, changed: false, activeUntil: null }, NOW);
      delays.push(delayMs);
    }
    expect(delays).toEqual([100_000, 200_000, 400_000, 800_000, 900_000, 900_000, 900_000, 900_000]);
  });

  it("GIVEN a poll that found a change THEN the next comes one active period later, however quiet the shop was", () => {
    expect(nextPollDelay(cadence, { delayMs: 900_000, changed: true, activeUntil: null }, NOW)).toBe(50_000);
  });

  it("GIVEN activity until later (an order delivered, a moderation) THEN the shop is polled at the active pace until then", () => {
    const active = { delayMs: 900_000, changed: false, activeUntil: NOW + 1 };
    expect(nextPollDelay(cadence, active, NOW)).toBe(50_000);
    // Once the activity has passed, the back-off goes on from where it was.
    expect(nextPollDelay(cadence, { ...active, activeUntil: NOW }, NOW)).toBe(900_000);
    expect(nextPollDelay(cadence, { delayMs: 100_000, changed: false, activeUntil: NOW - 1 }, NOW)).toBe(200_000);
  });

  it("GIVEN a quiet pace shorter than the active one THEN the active one holds", () => {
    expect(
      nextPollDelay({ activeMs: 50_000, quietMs: 10_000 }, { delayMs: null, changed: false, activeUntil: null }, NOW),
    ).toBe(50_000);
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
