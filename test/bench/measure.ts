// Small measuring tools shared by the scenarios.

/** The p-th percentile (0..100) by nearest rank; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

export const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;
export const mb = (bytes: number) => round(bytes / 2 ** 20, 1);

/** Samples this process's RSS (and heap) every `everyMs` until stopped. */
export function rssSampler(everyMs = 100) {
  let peakRss = process.memoryUsage.rss();
  let peakHeap = process.memoryUsage().heapUsed;
  let samples = 0;
  const sample = () => {
    samples++;
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
  };
  const timer = setInterval(sample, everyMs);
  return {
    current: () => process.memoryUsage.rss(),
    stop() {
      clearInterval(timer);
      sample();
      return { peakRss, peakHeap, samples };
    },
  };
}

/** A seeded generator (the simulated store's), so a benchmark's workload is the same on every run. */
export { mulberry32 as seededRandom } from "../../sandbox/simulated-store/random";

/** Runs `work(i)` for i in 0..n-1 with at most `concurrency` in flight, in index order. */
export async function pool(n: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
}

/** Progress lines of a child go to stderr (stdout carries its one JSON result line). */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}
