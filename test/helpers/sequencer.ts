import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Long files first: with a few workers, a long file that starts last keeps the run going on one
// core while the others idle; and a project's files together (byProject). The duration of a file
// is the one this machine's last run recorded (vitest's own cache), else the one in
// test/durations.json (a clean clone, CI), else a guess from its size. Groups
// (sequence.groupOrder: the fault drills) still run in order.

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
    const duration = new Map(files.map((spec) => [spec, estimate(spec)]));
    const groups = new Map<number, TestSpecification[]>();
    for (const spec of files) {
      const group = spec.project.config.sequence.groupOrder;
      groups.set(group, [...(groups.get(group) ?? []), spec]);
    }
    return [...groups.keys()]
      .sort((a, b) => a - b)
      .flatMap((group) => byProject(groups.get(group)!, (spec) => duration.get(spec)!));
  }
}

/**
 * The longest file first, then one project after another (the one holding the longest file left
 * first), longest first within each. Vitest keeps a worker process for the next file only when that
 * file is of the same project: files of the projects interleaved, it started 52 processes for the
 * first run instead of 13, each loading Prisma, Shopify's library and the rest again (55 of the
 * run's 290 CPU-seconds in Node). Starting the long files of every project first instead (they
 * mostly wait) was no faster: within the noise of a run, 231-248 s either way.
 */
export function byProject(
  specs: TestSpecification[],
  durationOf: (spec: TestSpecification) => number,
): TestSpecification[] {
  const [lead, ...rest] = [...specs].sort((a, b) => durationOf(b) - durationOf(a));
  if (!lead) return [];
  const projects = new Map<string, TestSpecification[]>();
  for (const spec of rest) projects.set(spec.project.name, [...(projects.get(spec.project.name) ?? []), spec]);
  // Each list is sorted already (rest is), so its first file is its longest.
  const ordered = [...projects.values()].sort((a, b) => durationOf(b[0]!) - durationOf(a[0]!));
  return [lead, ...ordered.flat()];
}
