import "../helpers/setup-env";
import { parseArgs } from "node:util";
import { z } from "zod";
import { runCatalogSyncBench, syncChild } from "./catalog-sync.bench";
import { runPagedReadBench } from "./paged-read.bench";
import { runUpdateStormBench, stormChild } from "./update-storm.bench";
import { ordersChild, runOrderSyncBench } from "./order-sync.bench";
import { bareIngressChild, runIngressLoadBench } from "./ingress-load.bench";
import { drainChild, runDrainBench } from "./worker-drain.bench";
import { runShopAppBench } from "./shop-app.bench";
import { runAdminBench } from "./admin-vitals.bench";
import { runThemeBytesBench } from "./theme-bytes.bench";
import { proxyBareChild, runStorefrontBench, storefrontChild } from "./storefront.bench";
import { backSyncChild, moderationLatencyChild, runBackSyncBench, runModerationLatencyBench } from "./backsync.bench";
import { runOrderHistoryBench } from "./order-history.bench";
import { appendToReport, machineLoad, writeReport, type BenchResult } from "./report";
import { noopWorkersChild, workersChild, type Services } from "./bench-stack";
import { fleetWorkersChild, runShopsBench } from "./shops.bench";
import { googleFeedChild, runGoogleFeedBench } from "./google-feed.bench";
import { runFleetCadenceBench } from "./fleet-cadence.bench";

// Benchmarks: speed and memory targets, measured on the real data path (see test/bench/README.md).
//   npm run bench                          # every scenario, full sizes (several minutes)
//   npm run bench -- --quick               # small sizes, a smoke run
//   npm run bench -- --scenario sync --n 10000,100000
//   npm run bench -- --scenario storm --deliveries 10000
//   npm run bench -- --scenario orders --orders 500 --rate 25
//   npm run bench -- --scenario ingress --ingress-rate 1000 --seconds 60   # the app and a bare server, same run
//   npm run bench -- --scenario drain --deliveries 20000   # one worker process, then two, emptying the webhooks queue
//   npm run bench -- --scenario shop-app --reviews 10000   # product_review syndication on a Plus-sized bucket
//   npm run bench -- --scenario theme     # bytes the theme blocks load before interaction
//   npm run bench -- --scenario storefront [--proxy-rate 500 --seconds 20 --writes 500]   # proxy reads, review
// submissions, block bytes, Lighthouse
//   npm run bench -- --scenario writes [--writes 500]   # review submissions through the proxy alone
//   npm run bench -- --scenario phone [--runs 15]   # product page LCP at 375 px, CPU 4× slower, with and without the
// blocks
//   npm run bench -- --scenario admin --reviews 10000 --runs 5
//   npm run bench -- --scenario history --history-orders 100   # "rate your order": service calls per page of 20 orders
//   npm run bench -- --scenario paged --paged-products 10000   # catalog read: bulk operation vs paged fallback
//   npm run bench -- --scenario shops --shops 1000,10000   # idle cost per connected shop, then 1% active
//   npm run bench -- --scenario shops --shops 1000 --shops-db postgresql   # the same on PostgreSQL
//   npm run bench -- --scenario google-feed --reviews 10000,100000   # the Google feed over HTTP, then its 304
//   npm run bench -- --scenario fleet --shops 10000 --hours 6   # back-sync calls/s and moderation latency, a fleet mix
// Writes test/bench/bench-report.md and bench-report.json (report.ts) and prints the markdown (a
// single --scenario replaces its own results in the existing report and keeps the others).
// `--child sync|storm|orders` is a measured process the orchestrator starts (it prints one JSON
// line), `--child workers` the worker process of the storm and of the order run, and
// `--child ingress-bare --port P --prefix K` the bare webhook server the ingress load compares the app with.

const USAGE =
  "usage: bench [--quick] [--scenario all|sync|storm|orders|ingress|drain|shop-app|theme|storefront|writes|phone|backsync|backsync-latency|admin|history|paged|shops|google-feed|fleet] [--shops N[,N...]] [--hours H] [--shops-db sqlite|postgresql] [--fairness-products N] [--paged-products N] [--history-orders N] [--reviews N[,N...]] [--runs N] [--admin-pages home,reviews,...] [--backsync-products N] [--proxy-rate R] [--writes N] [--n N[,N...]] [--deliveries D] [--orders O] [--rate R] [--ingress-rate R] [--seconds S] [--seed S]";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    scenario: { type: "string", default: "all" },
    n: { type: "string" },
    products: { type: "string" },
    deliveries: { type: "string" },
    orders: { type: "string" },
    rate: { type: "string" },
    "ingress-rate": { type: "string" },
    "proxy-rate": { type: "string" },
    writes: { type: "string" },
    seconds: { type: "string" },
    port: { type: "string" },
    seed: { type: "string", default: "11" },
    reviews: { type: "string" },
    "admin-pages": { type: "string" },
    runs: { type: "string" },
    child: { type: "string" },
    services: { type: "string" },
    "database-url": { type: "string" },
    prefix: { type: "string" },
    "backsync-products": { type: "string" },
    "history-orders": { type: "string" },
    "paged-products": { type: "string" },
    shops: { type: "string" },
    "shops-db": { type: "string" },
    "fairness-products": { type: "string" },
    hours: { type: "string" },
    config: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

const count = (v: string | undefined, fallback: number) => {
  const n = v === undefined ? fallback : Number(v.replace(/[_,]/g, ""));
  if (!Number.isInteger(n) || n < 1) throw new Error(`not a positive count: ${v}\n${USAGE}`);
  return n;
};

const servicesSchema = z.object({
  emulator: z.object({
    origin: z.string(),
    baseUrl: z.string(),
    authUrl: z.string(),
    rateUrl: z.string(),
    customer: z.string(),
    clientId: z.string(),
    clientSecret: z.string(),
  }),
  store: z.object({
    shop: z.string(),
    shopifyOrigin: z.string(),
    sessionUrl: z.string(),
    primaryDomain: z.string(),
    controlUrl: z.string(),
  }),
});

async function child(kind: string): Promise<unknown> {
  // The ingress web process needs no emulator or store.
  if (kind === "ingress-bare") return bareIngressChild(count(values.port, 0), values.prefix ?? "bench-ingress-bare");
  if (kind === "storefront") return storefrontChild(count(values.products, 24));
  if (kind === "proxy-bare")
    return proxyBareChild(JSON.parse(values.config ?? "{}") as { body: string; contentType: string });
  if (kind === "fleet-workers") return fleetWorkersChild(JSON.parse(values.config ?? "{}") as Record<string, string>);
  if (kind === "google-feed")
    return googleFeedChild(JSON.parse(values.config ?? "null") as Parameters<typeof googleFeedChild>[0]);
  const services: Services = servicesSchema.parse(JSON.parse(values.services ?? "null"));
  const seed = count(values.seed, 11);
  if (kind === "sync") return syncChild(count(values.n, 1000), services);
  if (kind === "workers") return workersChild(services, values["database-url"] ?? "", values.prefix ?? "");
  if (kind === "noop-workers") return noopWorkersChild(services, values["database-url"] ?? "", values.prefix ?? "");
  if (kind === "storm")
    return stormChild({
      products: count(values.products, 1000),
      deliveries: count(values.deliveries, 10_000),
      seed,
      services,
    });
  if (kind === "drain")
    return drainChild({
      products: count(values.products, 1000),
      deliveries: count(values.deliveries, 20_000),
      workers: [1, 2],
      seed,
      services,
    });
  if (kind === "backsync") return backSyncChild(count(values.n, 1000), services);
  if (kind === "backsync-latency") return moderationLatencyChild(count(values.n, 1000), services);
  if (kind === "orders")
    return ordersChild({
      products: count(values.products, 1000),
      orders: count(values.orders, 500),
      rate: count(values.rate, 25),
      seed,
      services,
    });
  throw new Error(`unknown child ${kind}`);
}

async function orchestrate(): Promise<void> {
  const quick = values.quick;
  const seed = count(values.seed, 11);
  const scenario = values.scenario ?? "all";
  if (
    ![
      "all",
      "sync",
      "storm",
      "orders",
      "ingress",
      "drain",
      "shop-app",
      "theme",
      "storefront",
      "writes",
      "phone",
      "backsync",
      "backsync-latency",
      "admin",
      "history",
      "paged",
      "shops",
      "google-feed",
      "fleet",
    ].includes(scenario)
  )
    throw new Error(`unknown scenario ${scenario}\n${USAGE}`);
  const sizes = values.n ? values.n.split(",").map((v) => count(v, 0)) : quick ? [2_000] : [10_000, 100_000];
  const deliveries = count(values.deliveries, quick ? 2_000 : 10_000);
  const started = performance.now();
  const results: BenchResult[] = [];
  // The load average counts our own processes too: "before" shows what else the machine was doing.
  const withLoad = async (run: () => Promise<BenchResult[]>) => {
    const before = machineLoad();
    const out = await run();
    const load = `${before} / ${machineLoad()}`;
    for (const r of out) r.figures["machine load, 1-min avg (before / after)"] = load;
    results.push(...out);
  };
  if (scenario === "all" || scenario === "sync") await withLoad(() => runCatalogSyncBench({ sizes, seed }));
  if (scenario === "all" || scenario === "storm")
    await withLoad(() => runUpdateStormBench({ products: 1_000, deliveries, seed }));
  if (scenario === "all" || scenario === "orders") {
    const orders = count(values.orders, quick ? 100 : 500);
    await withLoad(() => runOrderSyncBench({ products: 1_000, orders, rate: count(values.rate, 25), seed }));
  }
  if (scenario === "all" || scenario === "ingress") {
    await withLoad(() =>
      runIngressLoadBench({
        rate: count(values["ingress-rate"], 1000),
        seconds: count(values.seconds, quick ? 10 : 60),
        seed,
      }),
    );
  }
  if (scenario === "all" || scenario === "drain")
    await withLoad(() =>
      runDrainBench({ products: 1_000, deliveries: count(values.deliveries, quick ? 4_000 : 20_000), seed }),
    );
  if (scenario === "all" || scenario === "shop-app")
    await withLoad(() =>
      // On a Plus-sized bucket: a Standard one takes 15 minutes for the same points (the report gives
      // each plan's floor from the points measured).
      runShopAppBench({ reviews: count(values.reviews, quick ? 2_000 : 10_000), plans: ["plus"] }),
    );
  if (scenario === "all" || scenario === "theme") await withLoad(() => runThemeBytesBench());
  if (scenario === "all" || scenario === "storefront") {
    await withLoad(() =>
      runStorefrontBench({
        rate: count(values["proxy-rate"], 500),
        seconds: count(values.seconds, quick ? 5 : 20),
        lighthouseRuns: quick ? 1 : 3,
        writes: count(values.writes, quick ? 100 : 500),
        phoneRuns: count(values.runs, quick ? 5 : 15),
      }),
    );
  }
  if (scenario === "writes")
    await withLoad(() =>
      runStorefrontBench({
        rate: 0,
        seconds: 0,
        lighthouseRuns: 0,
        writes: count(values.writes, quick ? 100 : 500),
        phoneRuns: 0,
        writesOnly: true,
      }),
    );
  if (scenario === "phone")
    await withLoad(() =>
      runStorefrontBench({
        rate: 0,
        seconds: 0,
        lighthouseRuns: 0,
        writes: 0,
        phoneRuns: count(values.runs, quick ? 5 : 15),
        phoneOnly: true,
      }),
    );
  if (scenario === "all" || scenario === "backsync") {
    await withLoad(() => runBackSyncBench({ n: count(values["backsync-products"], quick ? 2_500 : 12_500), seed }));
  }
  if (scenario === "all" || scenario === "backsync-latency")
    await withLoad(() =>
      runModerationLatencyBench({ n: count(values["backsync-products"], quick ? 1_000 : 5_000), seed }),
    );
  if (scenario === "all" || scenario === "admin") {
    await withLoad(() =>
      runAdminBench({
        reviews: count(values.reviews, quick ? 2_000 : 10_000),
        runs: count(values.runs, quick ? 2 : 5),
        pages: values["admin-pages"]?.split(","),
      }),
    );
  }
  if (scenario === "all" || scenario === "history")
    await withLoad(() => runOrderHistoryBench({ orders: count(values["history-orders"], quick ? 45 : 100) }));
  if (scenario === "all" || scenario === "paged")
    await withLoad(() => runPagedReadBench({ n: count(values["paged-products"], quick ? 2_000 : 10_000), seed }));
  if (scenario === "all" || scenario === "shops") {
    const shops = values.shops ? values.shops.split(",").map((v) => count(v, 0)) : quick ? [200] : [1_000];
    const provider = values["shops-db"] ?? "sqlite";
    if (provider !== "sqlite" && provider !== "postgresql")
      throw new Error(`--shops-db is sqlite or postgresql, not ${provider}\n${USAGE}`);
    // The fairness phase: a 100,000-product shop's first sync among the fleet (up to 1,000 shops).
    const fairnessProducts = count(values["fairness-products"], quick ? 30_000 : 100_000);
    await withLoad(() => runShopsBench({ sizes: shops, provider, fairnessProducts }));
  }
  if (scenario === "all" || scenario === "fleet") {
    const shops = count(values.shops?.split(",")[0], quick ? 2_000 : 10_000);
    const hours = count(values.hours, quick ? 1 : 6);
    await withLoad(() => runFleetCadenceBench({ shops, hours, seed }));
  }
  if (scenario === "all" || scenario === "google-feed") {
    // Not withLoad: each size records the machine's load around its own run.
    const sizes = values.reviews
      ? values.reviews.split(",").map((v) => count(v, 0))
      : quick
        ? [2_000]
        : [10_000, 100_000];
    results.push(...(await runGoogleFeedBench({ sizes })));
  }
  const mode = `${quick ? "quick" : "full"}, scenario ${scenario}, seed ${seed}, ${Math.round((performance.now() - started) / 1000)} s`;
  console.log("");
  // Every scenario: a new report. One scenario: its results replace the same ones in the report.
  console.log(scenario === "all" ? writeReport(results, mode) : appendToReport(results, mode));
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
