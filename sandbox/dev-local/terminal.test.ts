import { describe, expect, it } from "vitest";
import { createTerminal, elapsed } from "./terminal";

/** An output that keeps what was written; `isTTY` as a terminal or a pipe would say. */
function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { out: { isTTY, write: (t: string) => chunks.push(t) }, text: () => chunks.join(""), chunks };
}

/** A clock the test moves. */
function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("elapsed", () => {
  it("says seconds under a minute, minutes and two-digit seconds above", () => {
    expect(elapsed(0)).toBe("0 s");
    expect(elapsed(12_900)).toBe("12 s");
    expect(elapsed(125_000)).toBe("2 min 05 s");
    expect(elapsed(-5)).toBe("0 s");
  });
});

describe("the dev:local terminal", () => {
  it("GIVEN no terminal (CI, a test) THEN each new progress state is a plain line, a repeat prints nothing, and no control characters", () => {
    const s = sink(false);
    const t = createTerminal(s.out, { prefix: "[x] " });
    t.progress("sync 1 of 3");
    t.progress("sync 1 of 3");
    t.progress("sync 2 of 3");
    t.say("done");
    expect(s.text()).toBe("[x] sync 1 of 3\n[x] sync 2 of 3\n[x] done\n");
  });

  it("GIVEN a terminal THEN progress rewrites its line in place, and a line that stays keeps the last state above it", () => {
    const s = sink(true);
    const t = createTerminal(s.out, { prefix: "[x] " });
    t.progress("sync 1 of 3");
    t.progress("sync 2 of 3");
    t.say("done");
    expect(s.text()).toBe("\r\x1b[2K[x] sync 1 of 3\r\x1b[2K[x] sync 2 of 3\n[x] done\n");
  });

  it("GIVEN a step off a terminal THEN a line when it starts and one with how long it took", async () => {
    const s = sink(false);
    const c = clock();
    const t = createTerminal(s.out, { prefix: "[x] ", now: c.now });
    const value = await t.step("starting the app server", async () => {
      c.advance(14_200);
      return 42;
    });
    expect(value).toBe(42);
    expect(s.text()).toBe("[x] starting the app server …\n[x] starting the app server: done (14 s)\n");
  });

  it("GIVEN a step that fails THEN it says so with the time, and the error reaches the caller", async () => {
    const s = sink(false);
    const c = clock();
    const t = createTerminal(s.out, { now: c.now });
    const failing = t.step("waiting for the back-sync", async () => {
      c.advance(3_000);
      throw new Error("no metafields");
    });
    await expect(failing).rejects.toThrow("no metafields");
    expect(s.text()).toBe("waiting for the back-sync …\nwaiting for the back-sync: failed after 3 s\n");
  });

  it("GIVEN a step on a terminal THEN its line ticks with the time waited, and is replaced by the result", async () => {
    const s = sink(true);
    const c = clock();
    const t = createTerminal(s.out, { now: c.now, tickMs: 5 });
    let release: () => void = () => undefined;
    const done = t.step("starting", () => new Promise<void>((r) => (release = r)));
    c.advance(2_000);
    // Wait for a tick to have drawn the time (a condition, not a sleep).
    await expect.poll(() => s.text(), { timeout: 10_000 }).toContain("starting … 2 s");
    release();
    await done;
    expect(s.text().startsWith("\r\x1b[2Kstarting …")).toBe(true);
    expect(s.text().endsWith("\r\x1b[2Kstarting: done (2 s)\n")).toBe(true);
  });
});
