import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The one report every benchmark writes to: `bench-report.json` (machine-readable, for comparing
// runs) and `bench-report.md` (for people) beside the benches, in test/bench/. A scenario contributes
// BenchResults; `writeReport` replaces the report, `appendToReport` adds to (or replaces, by
// scenario name) what an earlier run wrote, so later scenarios (orders, ingress load) can run alone.

export type BenchResult = {
  scenario: string;
  figures: Record<string, number | string | boolean>;
  targets?: Record<string, { value: number; limit: number; ok: boolean }>;
};

export interface BenchReport {
  generatedAt: string;
  machine: { node: string; platform: string; cpus: number; cpuModel: string; memoryGB: number };
  mode: string;
  results: BenchResult[];
}

export const REPORT_JSON = "bench-report.json";
export const REPORT_MD = "bench-report.md";
/** Where the report is written: beside the benches, not at the repository root. */
export const REPORT_DIR = fileURLToPath(new URL(".", import.meta.url));

function machine(): BenchReport["machine"] {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? "unknown",
    memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  };
}

function cell(v: number | string | boolean): string {
  if (typeof v === "number")
    return Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return String(v).replace(/\|/g, "\\|");
}

export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const lines = [
    "# Benchmark report",
    "",
    `Generated ${report.generatedAt} (${report.mode}) on Node ${m.node}, ${m.platform}, ${m.cpus} × ${m.cpuModel}, ${m.memoryGB} GB.`,
    "",
  ];
  const targets = report.results.flatMap((r) =>
    Object.entries(r.targets ?? {}).map(([name, t]) => ({ scenario: r.scenario, name, ...t })),
  );
  if (targets.length) {
    const failed = targets.filter((t) => !t.ok).length;
    lines.push(
      `## Targets: ${targets.length - failed} of ${targets.length} met`,
      "",
      "| scenario | target | value | limit | ok |",
      "|---|---|---:|---:|:---:|",
    );
    for (const t of targets)
      lines.push(
        `| ${cell(t.scenario)} | ${cell(t.name)} | ${cell(t.value)} | ${cell(t.limit)} | ${t.ok ? "yes" : "**NO**"} |`,
      );
    lines.push("");
  }
  for (const r of report.results) {
    lines.push(`## ${r.scenario}`, "", "| figure | value |", "|---|---:|");
    for (const [k, v] of Object.entries(r.figures)) lines.push(`| ${cell(k)} | ${cell(v)} |`);
    lines.push("");
  }
  return lines.join("\n");
}

/** Writes both files (replacing any earlier report) and returns the markdown. */
export function writeReport(results: BenchResult[], mode: string, dir = REPORT_DIR): string {
  const report: BenchReport = { generatedAt: new Date().toISOString(), machine: machine(), mode, results };
  const md = renderMarkdown(report);
  writeFileSync(join(dir, REPORT_JSON), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, REPORT_MD), `${md}\n`);
  return md;
}

/** A figure as `cell` printed it, read back: numbers without their separators, yes/no, text. */
function uncell(text: string): number | string | boolean {
  const plain = text.replace(/\\\|/g, "|").replace(/\*\*/g, "");
  if (/^-?[\d,]+(\.\d+)?$/.test(plain)) return Number(plain.replace(/,/g, ""));
  if (plain === "true" || plain === "false") return plain === "true";
  return plain;
}

const row = (line: string) =>
  line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/**
 * The results in `bench-report.md`, for a clone that has the committed markdown but not the JSON
 * (which is not committed): one scenario run there must not drop the others from the report.
 */
export function parseMarkdownReport(md: string): BenchResult[] {
  const results = new Map<string, BenchResult>();
  const get = (scenario: string) =>
    results.get(scenario) ?? results.set(scenario, { scenario, figures: {} }).get(scenario)!;
  let section: "targets" | string | undefined;
  for (const line of md.split("\n")) {
    if (line.startsWith("## ")) section = line.startsWith("## Targets:") ? "targets" : line.slice(3).trim();
    if (!section || !line.startsWith("| ") || /^\|\s*(scenario|figure) \|/.test(line) || line.startsWith("|---"))
      continue;
    const cells = row(line);
    if (section === "targets" && cells.length === 5) {
      const [scenario, name, value, limit, ok] = cells;
      (get(uncell(scenario) as string).targets ??= {})[uncell(name) as string] = {
        value: Number(uncell(value)),
        limit: Number(uncell(limit)),
        ok: ok === "yes",
      };
    } else if (section !== "targets" && cells.length === 2) {
      get(section).figures[uncell(cells[0]) as string] = uncell(cells[1]);
    }
  }
  return [...results.values()];
}

function earlierReport(dir: string): BenchReport | undefined {
  const json = join(dir, REPORT_JSON);
  if (existsSync(json)) return JSON.parse(readFileSync(json, "utf8")) as BenchReport;
  const md = join(dir, REPORT_MD);
  if (!existsSync(md)) return undefined;
  const text = readFileSync(md, "utf8");
  const mode = /^Generated \S+ \(([^)]*)\)/m.exec(text)?.[1] ?? "earlier run";
  return { generatedAt: "", machine: machine(), mode, results: parseMarkdownReport(text) };
}

/** Adds results to the report on disk; a result replaces an earlier one of the same scenario. */
export function appendToReport(results: BenchResult[], mode: string, dir = REPORT_DIR): string {
  const earlier = earlierReport(dir);
  const names = new Set(results.map((r) => r.scenario));
  const kept = (earlier?.results ?? []).filter((r) => !names.has(r.scenario));
  return writeReport([...kept, ...results], kept.length && earlier ? `${earlier.mode}; then ${mode}` : mode, dir);
}

/**
 * The machine's 1-minute load average: other work on the machine (builds, tests) slows a run, so a
 * result carries it, and a figure taken on a busy machine can be told from a regression.
 */
export function machineLoad(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

/** A target met when `value <= limit`. */
export function atMost(value: number, limit: number) {
  return { value, limit, ok: value <= limit };
}

/** A target met when `value === limit`. */
export function exactly(value: number, limit: number) {
  return { value, limit, ok: value === limit };
}

/** A target met when `value >= limit`. */
export function atLeast(value: number, limit: number) {
  return { value, limit, ok: value >= limit };
}
