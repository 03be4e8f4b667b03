import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Longest files first, across projects: with a few workers, a long file that starts last keeps the
// run going on one core while the others idle. The duration of a file is the one this machine's
// last run recorded (vitest's own cache), else the one in test/durations.json (a clean clone, CI),
// else a guess from its size. Groups (sequence.groupOrder: the fault drills) still run in order.

const DURATIONS_FILE = new URL("../durations.json", import.meta.url);
/** A file never timed: assume the median-ish integration file, ahead of the quick unit files. */
const UNKNOWN_MS = 5_000;

function committedDurations(): Record<string, number> {
  try {
    return (JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as { files: Record<string, number> }).files;
  } catch {
    return {};
  }
}

type Result = { duration: number } | undefined;
/** The results cache of vitest 4 (by key) and of vitest 5 (by specification, the key deprecated). */
type ResultsCache = {
  getTestSpecificationResult?: (spec: TestSpecification) => Result;
  getFileTestResults?: (key: string) => Result;
};

export class LongestFirst extends BaseSequencer {
  private lastResult(spec: TestSpecification, key: string): Result {
    const cache = this.ctx.cache as unknown as ResultsCache | undefined;
    if (cache?.getTestSpecificationResult) return cache.getTestSpecificationResult(spec);
    return cache?.getFileTestResults?.(key);
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const committed = committedDurations();
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const cached = this.lastResult(spec, `${spec.project.name}:${path}`);
      if (cached && cached.duration > 0) return cached.duration;
      return committed[path] ?? UNKNOWN_MS;
    };
    const order = new Map(files.map((spec) => [spec, estimate(spec)]));
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      return group !== 0 ? group : order.get(b)! - order.get(a)!;
    });
  }
}
