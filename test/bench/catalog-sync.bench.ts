import { readFileSync } from "node:fs";
import { MAX_BATCH_ITEMS } from "../../app/.server/catalog/catalog-sender";
import { runFullSync, startBenchStack, type Services } from "./bench-stack";
import { peakRssOf, runChild, startEmulatorChild, startStoreChild, type EmulatorChild } from "./children";
import { mb, progress, round, rssSampler } from "./measure";
import { atLeast, atMost, exactly, type BenchResult } from "./report";

// Scenario "initial catalog sync": N generated products (with their variants) from the simulated
// store's bulk file into the emulator, through the real processors (startSync → catalog-start →
// catalog-poll → catalog-read). Each N runs in a fresh child process that samples its own RSS; the
// emulator and the store are children of the orchestrator, which counts the batch requests in the
// emulator's log while the run goes on (the log keeps a bounded window, so it is read as it grows).

export const SYNC_SHOP = "bench-sync.myshopify.com";
/** What "flat" allows between the smallest and the largest N: GC slack and caches, not a function of N. */
export const RSS_GROWTH_LIMIT_MB = 50;
export const SYNC_TARGET_PER_SECOND = 3_000;

export interface SyncRunFigures {
  n: number;
  status: string;
  error: string | null;
  read: number;
  sent: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  totalMs: number;
  readMs: number;
  baselineRssMB: number;
  peakRssMB: number;
  peakHeapMB: number;
  vmHwmMB: number | null;
  rssSamples: number;
  warnings: number;
  lastWarnings: string[];
}

// ---------- inside the measured child ----------

export async function syncChild(n: number, services: Services): Promise<SyncRunFigures> {
  const s = await startBenchStack("bench-sync", services, { workers: true });
  try {
    (globalThis as { gc?: () => void }).gc?.();
    const sampler = rssSampler(100);
    const baseline = sampler.current();
    progress(`N=${n}: baseline RSS ${mb(baseline)} MB, sync started`);
    let lastRead = 0;
    let lastAt = performance.now();
    const outcome = await runFullSync(
      s,
      Math.max(180_000, n * 6),
      (p, status) => {
        const now = performance.now();
        if (now - lastAt < 2000) return;
        const rate = ((p.read - lastRead) * 1000) / (now - lastAt);
        progress(
          `${status}: ${p.read.toLocaleString("en-US")} read, ${p.sent.toLocaleString("en-US")} sent (${Math.round(rate)}/s), RSS ${mb(sampler.current())} MB`,
        );
        lastRead = p.read;
        lastAt = now;
      },
      100,
    );
    const mem = sampler.stop();
    const readMs =
      s.readMarks.start !== undefined && s.readMarks.end !== undefined
        ? s.readMarks.end - s.readMarks.start
        : Number.NaN;
    progress(
      `N=${n}: ${outcome.status} in ${round(outcome.totalMs / 1000)} s (read ${round(readMs / 1000)} s), peak RSS ${mb(mem.peakRss)} MB`,
    );
    return {
      n,
      status: outcome.status,
      error: outcome.error,
      read: outcome.progress.read,
      sent: outcome.progress.sent,
      created: outcome.progress.created,
      updated: outcome.progress.updated,
      unchanged: outcome.progress.unchanged,
      failed: outcome.progress.failed,
      totalMs: round(outcome.totalMs, 0),
      readMs: round(readMs, 0),
      baselineRssMB: mb(baseline),
      peakRssMB: mb(mem.peakRss),
      peakHeapMB: mb(mem.peakHeap),
      vmHwmMB: peakRssOf(process.pid),
      rssSamples: mem.samples,
      warnings: s.sink.count,
      lastWarnings: s.sink.lines.slice(-5),
    };
  } finally {
    await s.close();
  }
}

// ---------- in the orchestrator ----------

/** Counts the batch requests in the emulator's log as it grows (entries in flight are read again). */
function batchCounter(emu: EmulatorChild) {
  const path = `/api/${emu.info.customer}/products/batch`;
  const seen = new Set<number>();
  const byStatus = new Map<number, number>();
  let cursor = 0;
  let productsAccepted = 0;
  let gaps = 0;
  let stopped = false;

  async function poll() {
    const entries = await emu.requests(cursor);
    if (cursor > 0 && entries.length && entries[0].seq > cursor + 1 && !seen.has(cursor + 1)) gaps++;
    let open: number | undefined;
    for (const e of entries) {
      if (e.status === null) {
        open ??= e.seq;
        continue;
      }
      if (seen.has(e.seq)) continue;
      seen.add(e.seq);
      if (e.path !== path) continue;
      byStatus.set(e.status, (byStatus.get(e.status) ?? 0) + 1);
      const products = (e.body as { products?: unknown[] } | null)?.products;
      if (e.status === 200 && Array.isArray(products)) productsAccepted += products.length;
    }
    cursor = open !== undefined ? open - 1 : (entries.at(-1)?.seq ?? cursor);
  }

  const loop = (async () => {
    while (!stopped) {
      await poll();
      await new Promise((r) => setTimeout(r, 250));
    }
  })();

  return {
    async stop() {
      stopped = true;
      await loop;
      await poll();
      const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
      const statuses =
        [...byStatus.entries()]
          .sort(([a], [b]) => a - b)
          .map(([s, c]) => `${s}×${c}`)
          .join(", ") || "none";
      return { total, ok: byStatus.get(200) ?? 0, statuses, productsAccepted, gaps };
    },
  };
}

/**
 * The node flags `npm run worker` gives the worker process (package.json), so the measured run is
 * the worker as it runs: a 64 MB young generation, where a sync's batches die young instead of
 * piling up in the old one (measured on 100,000 products: 1,789 → 2,452 products/s).
 */
export function workerNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>;
  };
  return (pkg.scripts.worker ?? "").split(/\s+/).filter((part) => part.startsWith("--"));
}

/**
 * V8 sizes its heap from the machine's memory (a quarter of it), and on this 24 GB machine lets
 * garbage pile up to gigabytes before a full collection: peak RSS then measures V8's patience, not
 * what the sync holds. The run gets the old space V8 gives a worker with 1 GB (256 MB), as in a
 * container of that size; what the sync holds must fit in it at any N.
 */
export const SYNC_OLD_SPACE_MB = 256;

export async function runCatalogSyncBench(o: { sizes: number[]; seed: number }): Promise<BenchResult[]> {
  const nodeFlags = [...workerNodeFlags(), `--max-old-space-size=${SYNC_OLD_SPACE_MB}`];
  const results: BenchResult[] = [];
  const peaks = new Map<number, number>();
  for (const n of o.sizes) {
    console.log(`initial catalog sync, N = ${n.toLocaleString("en-US")}: starting emulator and simulated store`);
    const emu = await startEmulatorChild();
    const store = await startStoreChild({ products: n, seed: o.seed, shop: SYNC_SHOP });
    try {
      const counter = batchCounter(emu);
      const services: Services = { emulator: emu.info, store: store.info };
      let run: SyncRunFigures;
      try {
        run = await runChild<SyncRunFigures>(
          ["--child", "sync", "--n", String(n), "--services", JSON.stringify(services)],
          `sync N=${n}`,
          nodeFlags,
        );
      } catch (error) {
        await counter.stop();
        throw error;
      }
      const batches = await counter.stop();
      const expected = Math.ceil(n / MAX_BATCH_ITEMS);
      const allValid = run.failed === 0 && run.created + run.updated + run.unchanged === n;
      const accepted = run.created + run.updated + run.unchanged;
      const perSec = round((accepted * 1000) / run.readMs, 0);
      peaks.set(n, run.peakRssMB);
      console.log(
        `  → ${batches.total} batch requests (expected ${expected}), ${perSec.toLocaleString("en-US")} products/s, peak RSS ${run.peakRssMB} MB (baseline ${run.baselineRssMB} MB)`,
      );
      results.push({
        scenario: `initial catalog sync (N = ${n.toLocaleString("en-US")})`,
        figures: {
          products: n,
          "node flags of the measured process (npm run worker's, and the old space of a 1 GB machine)":
            nodeFlags.join(" "),
          "sync status": run.status + (run.error ? `: ${run.error}` : ""),
          "products read": run.read,
          "products sent": run.sent,
          "accepted (created + updated + unchanged)": accepted,
          "failed (mapping or refused)": run.failed,
          "every product valid and accepted": allValid,
          "batch requests sent": batches.total,
          "batch requests expected (ceil(N/200))": expected,
          "batch requests matched": batches.total === expected,
          "batch request statuses": batches.statuses,
          "products in 200 batches (emulator log)": batches.productsAccepted,
          "read → all accepted (s)": round(run.readMs / 1000, 2),
          "products per second (read → all accepted)": perSec,
          "startSync → completed (s, includes the 5 s bulk poll)": round(run.totalMs / 1000, 2),
          "baseline RSS before sync (MB)": run.baselineRssMB,
          "peak RSS, sampled every 100 ms (MB)": run.peakRssMB,
          "peak RSS above baseline (MB)": round(run.peakRssMB - run.baselineRssMB, 1),
          "peak heap used (MB)": run.peakHeapMB,
          "VmHWM of the sync process (MB)": run.vmHwmMB ?? "n/a",
          "RSS samples": run.rssSamples,
          "emulator child peak RSS (MB, not ours)": peakRssOf(emu.process.pid) ?? "n/a",
          "store child peak RSS (MB, not ours)": peakRssOf(store.process.pid) ?? "n/a",
          "warnings logged": run.warnings,
          ...(batches.gaps ? { "request log gaps (entries evicted before read)": batches.gaps } : {}),
        },
        targets: {
          "products per second ≥ 3,000": atLeast(perSec, SYNC_TARGET_PER_SECOND),
          "batch requests = ceil(N/200)": exactly(batches.total, expected),
          "every product accepted (failed)": exactly(run.failed, 0),
        },
      });
      if (run.lastWarnings.length)
        console.log(`  last warnings:\n${run.lastWarnings.map((l) => `    ${l.trim()}`).join("\n")}`);
    } finally {
      await store.stop();
      await emu.stop();
    }
  }
  if (peaks.size >= 2) {
    const sizes = [...peaks.keys()].sort((a, b) => a - b);
    const small = sizes[0];
    const large = sizes[sizes.length - 1];
    const growth = round(peaks.get(large)! - peaks.get(small)!, 1);
    // Flat: ten times the products may not cost more than a fixed allowance of extra RSS.
    results.push({
      scenario: "initial catalog sync: memory across N",
      figures: {
        [`peak RSS at N = ${small.toLocaleString("en-US")} (MB)`]: peaks.get(small)!,
        [`peak RSS at N = ${large.toLocaleString("en-US")} (MB)`]: peaks.get(large)!,
        "growth (MB)": growth,
        "ratio large/small": round(peaks.get(large)! / peaks.get(small)!, 2),
      },
      targets: {
        [`peak RSS growth ${small.toLocaleString("en-US")} → ${large.toLocaleString("en-US")} products (MB)`]: atMost(
          growth,
          RSS_GROWTH_LIMIT_MB,
        ),
      },
    });
  }
  return results;
}
