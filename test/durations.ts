import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

// `npx tsx test/durations.ts <report.json>...`: test/durations.json from runs' JSON reports
// (`TEST_REPORT=<file> npm test` keeps the first run's in <file> and the fault drills' beside it in
// <file>.faults.json; `npx vitest run --reporter=json --outputFile.json=<file>` writes one too).

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TARGET = new URL("durations.json", import.meta.url);

const reportPaths = process.argv.slice(2);
if (reportPaths.length === 0) {
  console.error("usage: npx tsx test/durations.ts <vitest JSON report>...");
  process.exit(2);
}
type Report = { testResults: { name: string; startTime: number; endTime: number }[] };
const previous = JSON.parse(readFileSync(TARGET, "utf8")) as { note: string; files: Record<string, number> };
const files: Record<string, number> = { ...previous.files };
for (const path of reportPaths) {
  const report = JSON.parse(readFileSync(path, "utf8")) as Report;
  for (const r of report.testResults) files[relative(ROOT, r.name)] = Math.round(r.endTime - r.startTime);
}
const sorted = Object.fromEntries(Object.entries(files).sort(([, a], [, b]) => b - a));
writeFileSync(TARGET, `${JSON.stringify({ note: previous.note, files: sorted }, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files in ${relative(process.cwd(), fileURLToPath(TARGET))}`);
