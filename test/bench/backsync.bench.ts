import pino from "pino";
import { runBackSync } from "../../app/.server/backsync/backsync";
import { createBackSyncState } from "../../app/.server/backsync/backsync-state.repository";
import { refreshProducts } from "../../app/.server/backsync/product-refresh";
import { METAFIELDS_PER_CALL } from "../../app/.server/backsync/metafield-writer";
import { parseSettings } from "../../app/.server/settings/settings";
import { configSchema } from "../../app/.server/config";
import { productGidOf } from "../../sandbox/simulated-store";
import { startBenchStack, type Services } from "./bench-stack";
import { runChild, startEmulatorChild, startStoreChild } from "./children";
import { SYNC_OLD_SPACE_MB, workerNodeFlags } from "./catalog-sync.bench";
import { mb, percentile, progress, round, rssSampler } from "./measure";
import { atMost, exactly, type BenchResult } from "./report";

// Scenario "back-sync of ratings": N products at the service, most with published reviews (the
// catalog through the service's API, the reviews from the emulator's seeder, not timed), then the first run of the
// back-sync (definitions, an empty feed, the full reconciliation from the product report: every
// product read from the Client API and written), then a second reconciliation and a refresh of
// every product through the summary → snapshot → digest path: both must write nothing. The store
// is a child process with Shopify's Standard-plan bucket (2,000 points, 100 a second): the time of
// the first run is bound by it (each metafieldsSet costs 10 points), which the report states beside
// the measured time. Calls and THROTTLED answers are counted by the store.

export const BACKSYNC_SHOP = "bench-backsync.myshopify.com";
const MUTATION_COST = 10;
const STANDARD_BUCKET = { maximumAvailable: 2_000, restoreRate: 100 };

interface StoreStats {
  byOperation: Record<string, number>;
  throttled: number;
  metafieldsSent: number;
}

export interface BackSyncFigures {
  n: number;
  withReviews: number;
  reviews: number;
  setupMs: number;
  first: { ms: number; written: number; metafieldsWritten: number; setCalls: number; summaries: number };
  second: { reconcileMs: number; refreshMs: number; written: number; unchanged: number; setCalls: number };
  stats: { first: StoreStats; second: StoreStats };
  baselineRssMB: number;
  peakRssMB: number;
  peakHeapMB: number;
  warnings: number;
  lastWarnings: string[];
}

async function storeStats(services: Services): Promise<StoreStats> {
  const url = services.store.controlUrl.replace(/\/update$/, "/stats");
  return (await (await fetch(url)).json()) as StoreStats;
}

const diff = (a: StoreStats, b: StoreStats): StoreStats => {
  const byOperation: Record<string, number> = {};
  for (const [k, v] of Object.entries(b.byOperation))
    if (v - (a.byOperation[k] ?? 0)) byOperation[k] = v - (a.byOperation[k] ?? 0);
  return { byOperation, throttled: b.throttled - a.throttled, metafieldsSent: b.metafieldsSent - a.metafieldsSent };
};

// ---------- inside the measured child ----------

export async function backSyncChild(n: number, services: Services): Promise<BackSyncFigures> {
  const s = await startBenchStack("bench-backsync", services, { workers: false });
  try {
    const shop = { id: s.shopId, domain: services.store.shop };
    const log = pino({ level: "warn" }, s.sink);
    const worker = (await import("../helpers/contexts")).testWorkerContext(s.config, s.t.db, s.sink);
    const reviews = await worker.reviewsFor(shop.domain);
    const gql = await worker.adminFor(shop.domain);

    // ---- setup (not timed): the catalog and the reviews, through the service's APIs ----
    const setupStart = performance.now();
    const skus = Array.from({ length: n }, (_, i) => productGidOf(i).replace(/^gid:\/\/shopify\/Product\//, ""));
    for (let i = 0; i < n; i += 200) {
      await reviews.admin.sendCatalogBatch(
        skus.slice(i, i + 200).map((sku) => ({ sku, name: `Product ${sku}`, categories: ["General"] })),
      );
    }
    // Reviews seeded by the emulator for products it holds (photos, replies, syndicated and translated
    // ones, topics; most products get some, a fifth none), 1,000 SKUs a call.
    const published: Record<string, number> = {};
    for (let i = 0; i < n; i += 1000) {
      const res = await fetch(`${services.emulator.origin}/__emulator/seed-reviews`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ customer: services.emulator.customer, skus: skus.slice(i, i + 1000) }),
      });
      if (!res.ok) throw new Error(`seed-reviews: ${res.status} ${await res.text()}`);
      Object.assign(published, ((await res.json()) as { published: Record<string, number> }).published);
    }
    const withReviews = Object.values(published).filter((c) => c > 0).length;
    const reviewCount = Object.values(published).reduce((a, b) => a + b, 0);
    const setupMs = performance.now() - setupStart;
    progress(
      `setup: ${n} products, ${withReviews} with reviews, ${reviewCount} published reviews in ${round(setupMs / 1000, 1)} s`,
    );

    const deps = {
      db: s.t.db,
      redis: s.web.queues.redis,
      prefix: s.prefix,
      log,
      shop,
      gql,
      reviews,
      settings: parseSettings("{}"),
    };
    (globalThis as { gc?: () => void }).gc?.();
    const sampler = rssSampler(100);
    const baseline = sampler.current();

    // ---- first run: definitions, cursor, full reconciliation → every product written ----
    const before1 = await storeStats(services);
    const t1 = performance.now();
    const first = await runBackSync(deps);
    const firstMs = performance.now() - t1;
    const stats1 = diff(before1, await storeStats(services));
    progress(
      `first run: ${first.refresh.written} products, ${first.refresh.metafieldsWritten} metafields in ${first.refresh.setCalls} calls, ${round(firstMs / 1000, 1)} s`,
    );

    // ---- second run: the reconciliation finds nothing, and a refresh of every product writes nothing ----
    const before2 = await storeStats(services);
    const t2 = performance.now();
    const again = await runBackSync(deps, { reconcile: true });
    const reconcileMs = performance.now() - t2;
    const t3 = performance.now();
    const refresh = await refreshProducts(
      { shopId: shop.id, gql, reviews, state: createBackSyncState(s.t.db), log },
      skus,
    );
    const refreshMs = performance.now() - t3;
    const stats2 = diff(before2, await storeStats(services));
    const mem = sampler.stop();
    progress(
      `second run: reconciliation ${round(reconcileMs / 1000, 1)} s, refresh of every product ${round(refreshMs / 1000, 1)} s, ${again.refresh.written + refresh.written} written`,
    );
    await worker.close();
    return {
      n,
      withReviews,
      reviews: reviewCount,
      setupMs: round(setupMs, 0),
      first: {
        ms: round(firstMs, 0),
        written: first.refresh.written,
        metafieldsWritten: first.refresh.metafieldsWritten,
        setCalls: first.refresh.setCalls,
        summaries: first.refresh.products,
      },
      second: {
        reconcileMs: round(reconcileMs, 0),
        refreshMs: round(refreshMs, 0),
        written: again.refresh.written + refresh.written,
        unchanged: refresh.unchanged,
        setCalls: again.refresh.setCalls + refresh.setCalls,
      },
      stats: { first: stats1, second: stats2 },
      baselineRssMB: mb(baseline),
      peakRssMB: mb(mem.peakRss),
      peakHeapMB: mb(mem.peakHeap),
      warnings: s.sink.count,
      lastWarnings: s.sink.lines.slice(-5),
    };
  } finally {
    await s.close();
  }
}

// ---------- in the orchestrator ----------

export async function runBackSyncBench(o: { n: number; seed: number }): Promise<BenchResult[]> {
  console.log(`back-sync of ratings, N = ${o.n.toLocaleString("en-US")}: starting emulator and simulated store`);
  const emu = await startEmulatorChild();
  const store = await startStoreChild({ products: o.n, seed: o.seed, shop: BACKSYNC_SHOP });
  try {
    const services: Services = { emulator: emu.info, store: store.info };
    // The worker's node flags and the old space V8 gives 1 GB, as the catalog bench (why there).
    const run = await runChild<BackSyncFigures>(
      ["--child", "backsync", "--n", String(o.n), "--services", JSON.stringify(services)],
      `backsync N=${o.n}`,
      [...workerNodeFlags(), `--max-old-space-size=${SYNC_OLD_SPACE_MB}`],
    );
    const setCalls = run.stats.first.byOperation.MetafieldsSet ?? 0;
    // Product metafields plus the one shop-data metafield, each call carrying up to 25.
    const expectedCalls = Math.ceil(run.first.metafieldsWritten / METAFIELDS_PER_CALL) + 1;
    const budgetFloorS = Math.max(
      0,
      (setCalls * MUTATION_COST - STANDARD_BUCKET.maximumAvailable) / STANDARD_BUCKET.restoreRate,
    );
    const secondSets = run.stats.second.byOperation.MetafieldsSet ?? 0;
    console.log(
      `  → first run ${round(run.first.ms / 1000, 1)} s: ${setCalls} metafieldsSet calls (expected ${expectedCalls}), ${run.stats.first.throttled} throttled; second run ${secondSets} calls`,
    );
    if (run.lastWarnings.length)
      console.log(`  last warnings:\n${run.lastWarnings.map((l) => `    ${l.trim()}`).join("\n")}`);
    return [
      {
        scenario: `back-sync of ratings (N = ${o.n.toLocaleString("en-US")} products with reviews)`,
        figures: {
          products: o.n,
          "products with published reviews": run.withReviews,
          "published reviews at the service": run.reviews,
          "setup: catalog and seeded reviews (s, not timed)": round(run.setupMs / 1000, 1),
          "first run: products written": run.first.written,
          "first run: product metafields written": run.first.metafieldsWritten,
          "first run: metafieldsSet calls (store count, incl. 1 shop-data call)": setCalls,
          "first run: metafieldsSet calls expected (ceil(metafields / 25) + 1)": expectedCalls,
          "first run: metafields carried by the calls (store count)": run.stats.first.metafieldsSent,
          "first run: THROTTLED answers": run.stats.first.throttled,
          "first run: Client API summaries read": run.first.summaries,
          "first run: time (s)": round(run.first.ms / 1000, 1),
          "first run: products per second": round((run.first.written * 1000) / run.first.ms, 0),
          "cost floor of the first run on a Standard-plan bucket (s: (calls × 10 − 2,000) / 100)": round(
            budgetFloorS,
            1,
          ),
          "second run: reconciliation (s)": round(run.second.reconcileMs / 1000, 2),
          "second run: refresh of every product through summary → digest (s)": round(run.second.refreshMs / 1000, 1),
          "second run: products unchanged": run.second.unchanged,
          "second run: metafieldsSet calls (store count)": secondSets,
          "second run: THROTTLED answers": run.stats.second.throttled,
          "Admin GraphQL calls, first run": Object.entries(run.stats.first.byOperation)
            .map(([k, v]) => `${k} ${v}`)
            .join(", "),
          "node flags of the measured process": [
            ...workerNodeFlags(),
            `--max-old-space-size=${SYNC_OLD_SPACE_MB}`,
          ].join(" "),
          "RSS after setup, before the runs (MB)": run.baselineRssMB,
          "peak RSS of the back-sync process (MB)": run.peakRssMB,
          "peak RSS above it (MB)": round(run.peakRssMB - run.baselineRssMB, 1),
          "peak heap used (MB)": run.peakHeapMB,
          "warnings logged": run.warnings,
        },
        targets: {
          "metafieldsSet calls = ceil(metafields written / 25) + 1 (shop data)": exactly(setCalls, expectedCalls),
          "THROTTLED answers (both runs)": exactly(run.stats.first.throttled + run.stats.second.throttled, 0),
          "second run: metafields written": exactly(run.stats.second.metafieldsSent, 0),
          "every product with reviews written on the first run": exactly(run.first.written, run.withReviews),
        },
      },
    ];
  } finally {
    await store.stop();
    await emu.stop();
  }
}

// ---------- moderation → storefront ----------
//
// Scenario "moderation → storefront metafield", against a service that sends the documented fields
// only (the emulator in strict mode: no `moderatedAt` on a review, so the feed recognises a change
// by review id and status). N products at the service, their reviews seeded with one pending review
// per reviewed product, the first back-sync run done (not timed). Then, one at a time, a pending
// review is approved through the Admin API and the back-sync run that the next poll starts is
// timed from the approval until that product's metafields are written. A shopper sees the rating
// at the latest one poll interval (BACKSYNC_INTERVAL_MS) after the approval plus that run.

export const LATENCY_SHOP = "bench-latency.myshopify.com";
const LATENCY_TRIALS = 20;

export interface LatencyFigures {
  n: number;
  trials: number;
  runMs: number[];
  feedPages: number[];
  changesFound: number[];
  productsWritten: number[];
  intervalMs: number;
}

export async function moderationLatencyChild(n: number, services: Services): Promise<LatencyFigures> {
  const s = await startBenchStack("bench-latency", services, { workers: false });
  try {
    const shop = { id: s.shopId, domain: services.store.shop };
    const log = pino({ level: "warn" }, s.sink);
    const worker = (await import("../helpers/contexts")).testWorkerContext(s.config, s.t.db, s.sink);
    const reviews = await worker.reviewsFor(shop.domain);
    const gql = await worker.adminFor(shop.domain);
    const skus = Array.from({ length: n }, (_, i) => productGidOf(i).replace(/^gid:\/\/shopify\/Product\//, ""));
    for (let i = 0; i < n; i += 200)
      await reviews.admin.sendCatalogBatch(
        skus.slice(i, i + 200).map((sku) => ({ sku, name: `Product ${sku}`, categories: ["General"] })),
      );
    const pending: string[] = [];
    for (let i = 0; i < n; i += 1000) {
      const res = await fetch(`${services.emulator.origin}/__emulator/seed-reviews`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ customer: services.emulator.customer, skus: skus.slice(i, i + 1000) }),
      });
      if (!res.ok) throw new Error(`seed-reviews: ${res.status} ${await res.text()}`);
      pending.push(...Object.values(((await res.json()) as { pending: Record<string, string> }).pending));
    }
    const deps = {
      db: s.t.db,
      redis: s.web.queues.redis,
      prefix: s.prefix,
      log,
      shop,
      gql,
      reviews,
      settings: parseSettings("{}"),
    };
    await runBackSync(deps);
    progress(`latency: ${n} products, first run done, ${pending.length} pending reviews to approve`);
    const out: LatencyFigures = {
      n,
      trials: 0,
      runMs: [],
      feedPages: [],
      changesFound: [],
      productsWritten: [],
      intervalMs: s.config.BACKSYNC_INTERVAL_MS || configSchema.shape.BACKSYNC_INTERVAL_MS.parse(undefined),
    };
    for (const id of pending.slice(0, LATENCY_TRIALS)) {
      const t0 = performance.now();
      await reviews.admin.moderateReview(id, true);
      const run = await runBackSync(deps);
      out.runMs.push(round(performance.now() - t0, 1));
      out.feedPages.push(run.feed.pages);
      out.changesFound.push(run.feed.changes);
      out.productsWritten.push(run.refresh.written);
      out.trials++;
    }
    await worker.close();
    return out;
  } finally {
    await s.close();
  }
}

export async function runModerationLatencyBench(o: { n: number; seed: number }): Promise<BenchResult[]> {
  console.log(
    `moderation → storefront, N = ${o.n.toLocaleString("en-US")}: starting a strict emulator and the simulated store`,
  );
  const emu = await startEmulatorChild({ strict: true });
  const store = await startStoreChild({ products: o.n, seed: o.seed, shop: LATENCY_SHOP });
  try {
    const services: Services = { emulator: emu.info, store: store.info };
    const run = await runChild<LatencyFigures>(
      ["--child", "backsync-latency", "--n", String(o.n), "--services", JSON.stringify(services)],
      `latency N=${o.n}`,
    );
    const p50 = percentile(run.runMs, 50);
    const p95 = percentile(run.runMs, 95);
    const max = Math.max(...run.runMs);
    const worst = run.intervalMs + max;
    console.log(
      `  → approval → metafields written: p50 ${p50} ms, p95 ${p95} ms, max ${max} ms; with the poll interval ${run.intervalMs} ms: at most ${round(worst / 1000, 1)} s`,
    );
    return [
      {
        scenario: "moderation → storefront metafield (service with documented fields only)",
        figures: {
          "products at the service": o.n,
          "approvals measured (one at a time)": run.trials,
          "approval → metafields written, run started at once: p50 (ms)": p50,
          "approval → metafields written, run started at once: p95 (ms)": p95,
          "approval → metafields written, run started at once: max (ms)": max,
          "feed pages read per run (max)": Math.max(...run.feedPages),
          "poll interval BACKSYNC_INTERVAL_MS (ms)": run.intervalMs,
          "approval → storefront, worst case: interval + max run (s)": round(worst / 1000, 1),
          "approval → storefront, mean: interval / 2 + p50 run (s)": round((run.intervalMs / 2 + p50) / 1000, 1),
        },
        targets: {
          "approval → storefront, worst case (s)": atMost(round(worst / 1000, 1), 60),
          "each approval found by the feed as one change": exactly(run.changesFound.filter((c) => c !== 1).length, 0),
          "each approval's product written": exactly(run.productsWritten.filter((w) => w !== 1).length, 0),
        },
      },
    ];
  } finally {
    await store.stop();
    await emu.stop();
  }
}
