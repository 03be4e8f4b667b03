import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendToReport, parseMarkdownReport, REPORT_MD, renderMarkdown, type BenchResult } from "./report";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const results: BenchResult[] = [
  {
    scenario: "catalog (N = 10,000)",
    figures: { "products/s": 2088.4, "batch requests": 50, "peak RSS (MB)": 531, note: "a | b", ok: true },
    targets: { "requests = ceil(N/200)": { value: 50, limit: 50, ok: true } },
  },
  { scenario: "proxy", figures: { "p99 (ms)": 575 }, targets: { "p99 (ms)": { value: 575, limit: 50, ok: false } } },
];

describe("bench report", () => {
  it("GIVEN the markdown a run wrote THEN its results read back as they were", () => {
    const md = renderMarkdown({
      generatedAt: "2026-11-24T00:00:00.000Z",
      machine: { node: "v20", platform: "linux-x64", cpus: 2, cpuModel: "x", memoryGB: 1 },
      mode: "full",
      results,
    });
    expect(parseMarkdownReport(md)).toEqual(results);
  });

  it("GIVEN a clone with only the committed markdown WHEN one scenario runs THEN the other scenarios stay in the report", () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-report-"));
    dirs.push(dir);
    writeFileSync(
      join(dir, REPORT_MD),
      renderMarkdown({
        generatedAt: "2026-11-24T00:00:00.000Z",
        machine: { node: "v20", platform: "linux-x64", cpus: 2, cpuModel: "x", memoryGB: 1 },
        mode: "full",
        results,
      }),
    );
    appendToReport(
      [{ scenario: "proxy", figures: { "p99 (ms)": 40 }, targets: { "p99 (ms)": { value: 40, limit: 50, ok: true } } }],
      "scenario proxy",
      dir,
    );
    const md = readFileSync(join(dir, REPORT_MD), "utf8");
    expect(md).toContain("## catalog (N = 10,000)");
    expect(md).toContain("| products/s | 2,088.4 |");
    expect(md).toContain("## Targets: 2 of 2 met");
    // The earlier proxy result is replaced (its figure in a cell, not the run's timestamp's digits).
    expect(md).not.toContain("| 575 |");
    expect(md).toContain("| p99 (ms) | 40 |");
  });
});
