import { describe, expect, it } from "vitest";
import type { TestSpecification } from "vitest/node";
import { byProject } from "./sequencer";

// What the suite's first run starts in: the longest file, then the files of one project back to
// back, so vitest hands each worker process the next file of its project instead of starting
// another process.

const durations = new Map<TestSpecification, number>();
const spec = (project: string, file: string, ms: number) => {
  const s = { project: { name: project }, moduleId: file } as unknown as TestSpecification;
  durations.set(s, ms);
  return s;
};
const durationOf = (s: TestSpecification) => durations.get(s)!;
const names = (specs: TestSpecification[]) => specs.map((s) => s.moduleId);

describe("byProject", () => {
  it("GIVEN files of three projects interleaved by duration THEN the longest first, then each project's files together, longest first", () => {
    const files = [
      spec("integration", "orders-sync", 40_000),
      spec("browser", "reviews.e2e", 30_000),
      spec("integration", "dev-local", 120_000),
      spec("browser", "onboarding.e2e", 65_000),
      spec("integration", "backsync", 32_000),
      spec("unit", "mapper", 1),
      spec("browser", "lists.e2e", 17_000),
    ];
    expect(names(byProject(files, durationOf))).toEqual([
      "dev-local",
      "onboarding.e2e",
      "reviews.e2e",
      "lists.e2e",
      "orders-sync",
      "backsync",
      "mapper",
    ]);
  });

  it("GIVEN no files THEN none", () => {
    expect(byProject([], durationOf)).toEqual([]);
  });
});
