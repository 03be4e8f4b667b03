import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  changeVersion,
  compareVersions,
  instantKey,
  isOlderThan,
  legacyVersion,
  versionOf,
  versionUpdatedAtMs,
  type ChangeStamp,
} from "./change-version";

/** An ISO time of `ms` as Shopify writes it: local time at `offsetMinutes` from UTC, with that offset. */
function shopifyTime(ms: number, offsetMinutes: number, fraction = ""): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return `${local}${fraction}${zone}`;
}

const sign = (n: number) => Math.sign(n);
const instants = fc.integer({ min: Date.UTC(2006, 0, 1), max: Date.UTC(2100, 0, 1) });
const offsets = fc.integer({ min: -12 * 4, max: 14 * 4 }).map((q) => q * 15);
const stamps: fc.Arbitrary<ChangeStamp> = fc.record({
  updatedAt: fc.option(
    fc.tuple(instants, offsets).map(([ms, off]) => shopifyTime(ms - (ms % 1000), off)),
    { nil: undefined },
  ),
  triggeredAt: fc.option(
    instants.map((ms) => new Date(ms).toISOString()),
    { nil: undefined },
  ),
  eventId: fc.option(fc.oneof(fc.uuid(), fc.bigInt({ min: 1n, max: 10n ** 20n }).map(String)), { nil: undefined }),
});

describe("change versions", () => {
  it("GIVEN one instant written with different offsets THEN the keys are equal", () => {
    expect(instantKey("2026-11-18T11:05:00-05:00")).toBe(instantKey("2026-11-18T16:05:00Z"));
    expect(instantKey("2026-11-18T21:35:00+05:30")).toBe(instantKey("2026-11-18T16:05:00.000Z"));
  });

  it("GIVEN fractional seconds finer than milliseconds THEN they still order the instants", () => {
    const a = instantKey("2026-11-18T11:05:00.123456788-05:00")!;
    const b = instantKey("2026-11-18T11:05:00.123456789-05:00")!;
    expect(compareVersions(a, b)).toBe(-1);
    expect(compareVersions(instantKey("2026-11-18T11:05:00-05:00")!, instantKey("2026-11-18T11:05:00.5-05:00")!)).toBe(
      -1,
    );
  });

  it("GIVEN any two times with any offsets THEN their keys order as the instants", () => {
    fc.assert(
      fc.property(instants, offsets, instants, offsets, (a, oa, b, ob) => {
        const ka = instantKey(shopifyTime(a, oa, `.${String(a % 1000).padStart(3, "0")}`))!;
        const kb = instantKey(shopifyTime(b, ob, `.${String(b % 1000).padStart(3, "0")}`))!;
        expect(sign(compareVersions(ka, kb))).toBe(sign(a - b));
      }),
    );
  });

  it("GIVEN two edits in one second THEN the triggered-at decides, then the event id", () => {
    const at = "2026-11-18T11:05:00-05:00";
    const first = changeVersion({ updatedAt: at, triggeredAt: "2026-11-18T16:05:00.120Z", eventId: "e-2" })!;
    const second = changeVersion({ updatedAt: at, triggeredAt: "2026-11-18T16:05:00.480Z", eventId: "e-1" })!;
    expect(isOlderThan(first, second)).toBe(true);
    expect(isOlderThan(second, first)).toBe(false);
    const sameTrigger = (eventId: string) =>
      changeVersion({ updatedAt: at, triggeredAt: "2026-11-18T16:05:00Z", eventId })!;
    expect(compareVersions(sameTrigger("9"), sameTrigger("10"))).toBe(-1);
  });

  it("GIVEN one event delivered twice THEN both deliveries are the same version", () => {
    fc.assert(
      fc.property(stamps, (s) => {
        expect(changeVersion({ ...s })).toBe(changeVersion(s));
      }),
    );
  });

  it("GIVEN any stamps THEN versions order by updated_at, then triggered-at, then event id", () => {
    const tuple = (s: ChangeStamp) => [
      s.updatedAt ? Date.parse(s.updatedAt) : -1,
      s.triggeredAt ? Date.parse(s.triggeredAt) : -1,
      s.eventId ?? "",
    ];
    const cmpId = (a: string, b: string) => {
      const na = /^\d+$/.test(a),
        nb = /^\d+$/.test(b);
      if (!a || !b) return sign(a.length - b.length);
      if (na && nb) return sign(Number(BigInt(a) - BigInt(b)));
      if (na !== nb) return na ? -1 : 1;
      return a < b ? -1 : a > b ? 1 : 0;
    };
    fc.assert(
      fc.property(stamps, stamps, (a, b) => {
        const va = changeVersion(a),
          vb = changeVersion(b);
        if (!va || !vb) return;
        const [ua, ta, ea] = tuple(a) as [number, number, string];
        const [ub, tb, eb] = tuple(b) as [number, number, string];
        const expected = ua !== ub ? sign(ua - ub) : ta !== tb ? sign(ta - tb) : cmpId(ea, eb);
        expect(sign(compareVersions(va, vb))).toBe(expected);
      }),
    );
  });

  it("GIVEN three versions THEN the order is total: antisymmetric and transitive", () => {
    fc.assert(
      fc.property(stamps, stamps, stamps, (a, b, c) => {
        const [va, vb, vc] = [a, b, c].map(changeVersion);
        if (!va || !vb || !vc) return;
        expect(sign(compareVersions(va, vb))).toBe(-sign(compareVersions(vb, va)));
        if (compareVersions(va, vb) <= 0 && compareVersions(vb, vc) <= 0) {
          expect(compareVersions(va, vc)).toBeLessThanOrEqual(0);
        }
      }),
    );
  });

  it("GIVEN a change without updated_at THEN it is never older, and never makes another older", () => {
    const v = changeVersion({ updatedAt: "2026-11-18T11:05:00-05:00" })!;
    expect(changeVersion({ updatedAt: null, triggeredAt: "2026-11-18T16:05:00Z" })).toBeUndefined();
    expect(isOlderThan(undefined, v)).toBe(false);
    expect(isOlderThan(v, undefined, null)).toBe(false);
  });

  it("GIVEN a version kept before versions were (epoch ms) THEN a delivery of that same instant is newer", () => {
    const ms = Date.parse("2026-11-18T11:05:00-05:00");
    const delivered = changeVersion({ updatedAt: "2026-11-18T11:05:00-05:00", triggeredAt: null, eventId: "1" })!;
    expect(isOlderThan(legacyVersion(ms), delivered)).toBe(true);
    expect(isOlderThan(delivered, legacyVersion(ms - 1000))).toBe(false);
    expect(versionUpdatedAtMs(delivered)).toBe(ms);
  });

  it("GIVEN a read of the current state THEN it ranks after the deliveries raised before it began, before those after", () => {
    const at = "2026-11-18T11:05:00-05:00";
    const read = versionOf(at, { readAt: new Date("2026-11-18T16:05:00.300Z") })!;
    const before = versionOf(at, { triggeredAt: "2026-11-18T16:05:00.100Z", eventId: "7" })!;
    const after = versionOf(at, { triggeredAt: "2026-11-18T16:05:00.500Z", eventId: "8" })!;
    expect([after, read, before].sort()).toEqual([before, read, after]);
    // GraphQL's DateTime has whole seconds: a read is never taken for newer than the fraction it dropped.
    const fractional = versionOf("2026-11-18T11:05:00.400-05:00", { triggeredAt: "2026-11-18T16:05:00.100Z" })!;
    expect(
      isOlderThan(versionOf("2026-11-18T16:05:00.400Z", { readAt: new Date("2026-11-18T16:05:01Z") }), fractional),
    ).toBe(true);
  });
});
