import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

// `npx tsx test/durations.ts <report.json>`: test/durations.json from a run's JSON report
// (`TEST_REPORT=<file> npm test` keeps one, as does `npx vitest run --reporter=json --outputFile.json=<file>`).

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TARGET = new URL("durations.json", import.meta.url);

const reportPath = process.argv[2];
if (!reportPath) {
  console.error("usage: npx tsx test/durations.ts <vitest JSON report>");
  process.exit(2);
}
type Report = { testResults: { name: string; startTime: number; endTime: number }[] };
const report = JSON.parse(readFileSync(reportPath, "utf8")) as Report;
const previous = JSON.parse(readFileSync(TARGET, "utf8")) as { note: string; files: Record<string, number> };
const files: Record<string, number> = { ...previous.files };
for (const r of report.testResults) files[relative(ROOT, r.name)] = Math.round(r.endTime - r.startTime);
const sorted = Object.fromEntries(Object.entries(files).sort(([, a], [, b]) => b - a));
writeFileSync(TARGET, `${JSON.stringify({ note: previous.note, files: sorted }, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files in ${relative(process.cwd(), fileURLToPath(TARGET))}`);
