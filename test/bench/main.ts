import "../helpers/setup-env";
import { parseArgs } from "node:util";
import { z } from "zod";
import { runCatalogSyncBench, syncChild } from "./catalog-sync.bench";
import { runUpdateStormBench, stormChild } from "./update-storm.bench";
import { writeReport, type BenchResult } from "./report";
import type { Services } from "./bench-stack";

// Benchmarks: speed and memory targets, measured on the real data path (see test/bench/README.md).
//   npm run bench                          # every scenario, full sizes (several minutes)
//   npm run bench -- --quick               # small sizes, a smoke run
//   npm run bench -- --scenario sync --n 10000,100000
//   npm run bench -- --scenario storm --deliveries 10000
// Writes bench-report.md and bench-report.json at the repository root and prints the markdown.
// `--child sync|storm` is the measured process the orchestrator starts; it prints one JSON line.

const USAGE = "usage: bench [--quick] [--scenario all|sync|storm] [--n N[,N...]] [--deliveries D] [--seed S]";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    scenario: { type: "string", default: "all" },
    n: { type: "string" },
    products: { type: "string" },
    deliveries: { type: "string" },
    seed: { type: "string", default: "11" },
    child: { type: "string" },
    services: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

const count = (v: string | undefined, fallback: number) => {
  const n = v === undefined ? fallback : Number(v.replace(/[_,]/g, ""));
  if (!Number.isInteger(n) || n < 1) throw new Error(`not a positive count: ${v}\n${USAGE}`);
  return n;
};

const servicesSchema = z.object({
  emulator: z.object({ origin: z.string(), baseUrl: z.string(), authUrl: z.string(), rateUrl: z.string(), customer: z.string(), clientId: z.string(), clientSecret: z.string() }),
  store: z.object({ shop: z.string(), graphqlEndpoint: z.string(), accessToken: z.string(), primaryDomain: z.string(), controlUrl: z.string() }),
});

async function child(kind: string): Promise<unknown> {
  const services: Services = servicesSchema.parse(JSON.parse(values.services ?? "null"));
  const seed = count(values.seed, 11);
  if (kind === "sync") return syncChild(count(values.n, 1000), services);
  if (kind === "storm") return stormChild({ products: count(values.products, 1000), deliveries: count(values.deliveries, 10_000), seed, services });
  throw new Error(`unknown child ${kind}`);
}

async function orchestrate(): Promise<void> {
  const quick = values.quick;
  const seed = count(values.seed, 11);
  const scenario = values.scenario ?? "all";
  if (!["all", "sync", "storm"].includes(scenario)) throw new Error(`unknown scenario ${scenario}\n${USAGE}`);
  const sizes = values.n ? values.n.split(",").map((v) => count(v, 0)) : quick ? [2_000] : [10_000, 100_000];
  const deliveries = count(values.deliveries, quick ? 2_000 : 10_000);
  const started = performance.now();
  const results: BenchResult[] = [];
  if (scenario === "all" || scenario === "sync") results.push(...(await runCatalogSyncBench({ sizes, seed })));
  if (scenario === "all" || scenario === "storm") results.push(...(await runUpdateStormBench({ products: 1_000, deliveries, seed })));
  const mode = `${quick ? "quick" : "full"}, scenario ${scenario}, seed ${seed}, ${Math.round((performance.now() - started) / 1000)} s`;
  console.log("");
  console.log(writeReport(results, mode));
}

if (values.help) {
  console.log(USAGE);
} else if (values.child) {
  const result = await child(values.child);
  // stdout carries exactly one line, the result; the pools and clients left open end with the process.
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
} else {
  await orchestrate();
  process.exit(0);
}
