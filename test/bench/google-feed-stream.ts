// Streams a Google feed of N generated reviews (default 100,000) through the real writer, pages of
// 100 as the service would give them, and prints the time, bytes and the heap/RSS high-water marks:
// the check that a large shop's feed stays flat in memory.
//   node scripts/node24.mjs npx tsx --expose-gc test/bench/google-feed-stream.ts [N]
import { emptyReport, writeFeed, type FeedSource } from "../../app/.server/google/feed-writer";
import { adminReview, feedShop, PRODUCTS } from "../../app/.server/google/feed.testkit";

const total = Number(process.argv[2] ?? 100_000);
const PAGE = 100;
const products = [PRODUCTS.tee, PRODUCTS.sensor, PRODUCTS.creme, PRODUCTS.pillow];
const byKey = new Map(products.map((p) => [p.sku, p]));

const source: FeedSource = {
  async *pages() {
    for (let i = 0; i < total; i += PAGE) {
      yield Array.from({ length: Math.min(PAGE, total - i) }, (_, j) =>
        adminReview({
          sku: products[(i + j) % products.length]!.sku,
          name: (i + j) % 7 ? `Reviewer ${i + j}` : null,
          text: `Review ${i + j}: ${"good fabric, true to size & quick delivery. ".repeat(1 + ((i + j) % 5))}`,
          rating: 1 + ((i + j) % 5),
        }),
      );
    }
  },
  async products(keys) {
    return new Map(keys.flatMap((k) => (byKey.has(k) ? [[k, byKey.get(k)!] as const] : [])));
  },
};

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const base = process.memoryUsage();
let peakHeap = base.heapUsed;
let peakRss = base.rss;
/** Heap still held after a collection, sampled along the way: what the stream keeps, not garbage. */
let peakRetained = base.heapUsed;
const started = performance.now();
const report = emptyReport();
let chunks = 0;
for await (const chunk of writeFeed(source, { shop: feedShop(), publisherName: "shop.example.com" }, report)) {
  chunks++;
  if (chunk.length === 0) throw new Error("empty chunk");
  if (chunks % 50 === 0) {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }
  if (gc && chunks % 200 === 0) {
    gc();
    peakRetained = Math.max(peakRetained, process.memoryUsage().heapUsed);
  }
}
const ms = performance.now() - started;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
console.log(
  JSON.stringify({
    reviews: total,
    included: report.included,
    feedSize: mb(report.bytes),
    seconds: +(ms / 1000).toFixed(2),
    heapBefore: mb(base.heapUsed),
    heapPeak: mb(peakHeap),
    heapRetainedPeak: mb(peakRetained),
    rssBefore: mb(base.rss),
    rssPeak: mb(peakRss),
  }),
);
