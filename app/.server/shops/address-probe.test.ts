import { describe, expect, it } from "vitest";
import { probeDelayMs } from "./address-probe";

describe("the probe's backoff", () => {
  const limits = { ADMIN_PROBE_MIN_MS: 30_000, ADMIN_PROBE_MAX_MS: 1_800_000 };
  it("starts at the minimum, doubles per refused probe and stops at the maximum", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => probeDelayMs(n, limits))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000, 1_800_000,
    ]);
  });
});
