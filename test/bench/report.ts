import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";

// The one report every benchmark writes to: `bench-report.json` (machine-readable, for comparing
// runs) and `bench-report.md` (for people) at the repository root. A scenario contributes
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
  if (typeof v === "number") return Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", { maximumFractionDigits: 2 });
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
  const targets = report.results.flatMap((r) => Object.entries(r.targets ?? {}).map(([name, t]) => ({ scenario: r.scenario, name, ...t })));
  if (targets.length) {
    const failed = targets.filter((t) => !t.ok).length;
    lines.push(`## Targets: ${targets.length - failed} of ${targets.length} met`, "", "| scenario | target | value | limit | ok |", "|---|---|---:|---:|:---:|");
    for (const t of targets) lines.push(`| ${cell(t.scenario)} | ${cell(t.name)} | ${cell(t.value)} | ${cell(t.limit)} | ${t.ok ? "yes" : "**NO**"} |`);
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
export function writeReport(results: BenchResult[], mode: string, dir = process.cwd()): string {
  const report: BenchReport = { generatedAt: new Date().toISOString(), machine: machine(), mode, results };
  const md = renderMarkdown(report);
  writeFileSync(join(dir, REPORT_JSON), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, REPORT_MD), `${md}\n`);
  return md;
}

/** Adds results to the report on disk; a result replaces an earlier one of the same scenario. */
export function appendToReport(results: BenchResult[], mode: string, dir = process.cwd()): string {
  const file = join(dir, REPORT_JSON);
  const earlier = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as BenchReport) : undefined;
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
