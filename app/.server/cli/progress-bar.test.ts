import { describe, expect, it } from "vitest";
import { progressCounters, progressLine } from "./progress-bar";
import { progressSchema, type SyncProgress } from "../sync/sync-runs.repository";

const progress = (p: Partial<SyncProgress>): SyncProgress => progressSchema.parse(p);

describe("progress line", () => {
  it("GIVEN no total yet (the bulk operation still running) THEN counters only, no bar", () => {
    expect(progressLine(progress({}), "running")).toBe(
      "[running] read 0, sent 0, created 0, updated 0, unchanged 0, failed 0",
    );
    // A bulk query that matched nothing has a total of 0: no bar either (no division by zero).
    expect(progressLine(progress({ total: 0 }), "reading")).toBe(
      "[reading] read 0, sent 0, created 0, updated 0, unchanged 0, failed 0",
    );
  });

  it("GIVEN a total THEN a bar of read/total, its percentage, the status and the counters", () => {
    const p = progress({ read: 200, sent: 180, created: 150, updated: 30, unchanged: 20, failed: 0, total: 450 });
    // 200/450 of 30 cells: 13.3, drawn as 13; 44%.
    expect(progressLine(p, "reading")).toBe(
      `[${"#".repeat(13)}${"-".repeat(17)}] 44% reading: read 200, sent 180, created 150, updated 30, unchanged 20, failed 0`,
    );
    expect(progressLine(progress({ total: 450 }), "reading")).toBe(
      `[${"-".repeat(30)}] 0% reading: ${progressCounters(progress({}))}`,
    );
    expect(progressLine(progress({ read: 450, sent: 450, created: 450, total: 450 }), "completed")).toBe(
      `[${"#".repeat(30)}] 100% completed: read 450, sent 450, created 450, updated 0, unchanged 0, failed 0`,
    );
  });

  it("GIVEN more read than the total (products added since the count) THEN the bar stops full", () => {
    expect(progressLine(progress({ read: 12, total: 10 }), "reading")).toMatch(/^\[#{30}\] 100% reading: read 12,/);
  });

  it("GIVEN a width THEN the bar has that many cells", () => {
    expect(progressLine(progress({ read: 1, total: 4 }), "reading", 8)).toMatch(/^\[##------\] 25% reading: /);
  });

  it("holds no control characters: a terminal rewrites it, logs and CI get it as one plain line", () => {
    const lines = [progressLine(progress({ read: 3, total: 7 }), "reading"), progressLine(progress({}), "pending")];
    for (const line of lines) expect([...line].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
  });
});
