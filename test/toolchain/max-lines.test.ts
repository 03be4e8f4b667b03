import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The size limit of eslint.config.js, proved on made-up files: product code past 400 lines fails
// lint, tests (and their helpers) may run longer.

const ROOT = new URL("../..", import.meta.url).pathname;
const eslint = new ESLint({ cwd: ROOT });

async function tooLong(filePath: string, lines: number): Promise<boolean> {
  const code = Array.from({ length: lines }, (_, i) => `export const x${i} = ${i};`).join("\n") + "\n";
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return result!.messages.some((m) => m.ruleId === "max-lines");
}

describe("max-lines", () => {
  it("GIVEN product code past 400 lines THEN lint fails", async () => {
    expect(await tooLong("app/.server/reviews/probe.ts", 401)).toBe(true);
    expect(await tooLong("app/routes/probe.tsx", 401)).toBe(true);
    expect(await tooLong("workers/processors/probe.ts", 401)).toBe(true);
    expect(await tooLong("server/probe.ts", 401)).toBe(true);
    expect(await tooLong("app/.server/reviews/probe.ts", 400)).toBe(false);
  });

  it("GIVEN a test or a test helper THEN it may run longer", async () => {
    expect(await tooLong("app/.server/reviews/probe.test.ts", 800)).toBe(false);
    expect(await tooLong("test/admin/probe.ts", 800)).toBe(false);
    expect(await tooLong("app/.server/mapping/probe.testkit.ts", 800)).toBe(false);
  });
});
