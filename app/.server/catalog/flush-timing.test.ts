import { describe, expect, it } from "vitest";
import { flushDelay, flushDueAt } from "./flush";

// When a shop's coalesced catalog changes leave: the rule that decides how many batches a storm of
// products/update costs and how long a change waits.

const W = 1000;
const M = 3000;

describe("flushDueAt", () => {
  it("GIVEN nothing waits THEN no flush is due", () => {
    expect(flushDueAt({ waiting: 0, waitingSince: null, lastStagedAt: null }, W, M)).toBeNull();
  });

  it("GIVEN changes stop arriving THEN they are due one quiet window after the newest", () => {
    expect(flushDueAt({ waiting: 3, waitingSince: 10_000, lastStagedAt: 10_500 }, W, M)).toBe(11_500);
  });

  it("GIVEN changes keep arriving THEN they are due no later than the max wait after the oldest", () => {
    expect(flushDueAt({ waiting: 150, waitingSince: 10_000, lastStagedAt: 12_900 }, W, M)).toBe(13_000);
  });

  it("GIVEN a full batch waits while changes keep arriving THEN it waits for its oldest change's max wait (their next changes merge into it)", () => {
    expect(flushDueAt({ waiting: 650, waitingSince: 10_000, lastStagedAt: 12_400 }, W, M)).toBe(13_000);
  });

  it("GIVEN a full batch and then quiet THEN it leaves after the quiet window", () => {
    expect(flushDueAt({ waiting: 200, waitingSince: 10_000, lastStagedAt: 10_400 }, W, M)).toBe(11_400);
  });
});

describe("flushDelay", () => {
  it("GIVEN a change THEN the flush is scheduled one window out, capped by the oldest change's max wait", () => {
    expect(flushDelay(10_000, 10_000, W, M)).toBe(1000);
    expect(flushDelay(12_500, 10_000, W, M)).toBe(500);
    expect(flushDelay(14_000, 10_000, W, M)).toBe(0);
  });
});
