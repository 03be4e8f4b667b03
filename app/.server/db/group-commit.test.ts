import { describe, expect, it } from "vitest";
import { groupCommit, groupOf } from "./group-commit";

// Group commit without a database: who joins a group, what each caller gets, and what a failed
// group does.

describe("group commit", () => {
  it("GIVEN requests made together THEN one run answers each with its own result, in order", async () => {
    const runs: number[][] = [];
    const double = groupCommit(async (xs: number[]) => {
      runs.push(xs);
      return xs.map((x) => x * 2);
    });
    expect(await Promise.all([1, 2, 3, 4].map((x) => double(x)))).toEqual([2, 4, 6, 8]);
    expect(runs).toEqual([[1, 2, 3, 4]]);
    expect(double.stats()).toEqual({ groups: 1, requests: 4 });
  });

  it("GIVEN requests arriving while a group runs THEN they wait and run together in the next group", async () => {
    const runs: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const echo = groupCommit(async (xs: number[]) => {
      runs.push(xs);
      if (runs.length === 1) await held;
      return xs;
    });
    const first = echo(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [echo(2), echo(3)];
    release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
    expect(runs).toEqual([[1], [2, 3]]);
  });

  it("GIVEN more requests than a group takes THEN they run in groups of at most that many", async () => {
    const sizes: number[] = [];
    const echo = groupCommit(
      async (xs: number[]) => {
        sizes.push(xs.length);
        return xs;
      },
      { max: 3 },
    );
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((x) => echo(x)));
    expect(sizes).toEqual([3, 3, 1]);
  });

  it("GIVEN a group that fails THEN each request runs alone and answers for itself; without that, each fails", async () => {
    const failing = async (xs: number[]): Promise<number[]> => {
      if (xs.length > 1) throw new Error("one bad row");
      return xs;
    };
    const alone = groupCommit(failing, {
      single: async (x) => {
        if (x === 2) throw new Error("bad row 2");
        return x;
      },
    });
    const answers = await Promise.allSettled([1, 2, 3].map((x) => alone(x)));
    expect(answers.map((a) => (a.status === "fulfilled" ? a.value : (a.reason as Error).message))).toEqual([
      1,
      "bad row 2",
      3,
    ]);
    const together = groupCommit(failing);
    const all = await Promise.allSettled([1, 2].map((x) => together(x)));
    expect(all.every((a) => a.status === "rejected")).toBe(true);
  });

  it("GIVEN one owner THEN each name is one group however often it is asked for; another owner has its own", () => {
    const owner = {};
    const make = () => groupCommit(async (xs: number[]) => xs);
    expect(groupOf(owner, "reads", make)).toBe(groupOf(owner, "reads", make));
    expect(groupOf(owner, "reads", make)).not.toBe(groupOf(owner, "writes", make));
    expect(groupOf({}, "reads", make)).not.toBe(groupOf(owner, "reads", make));
  });
});
