import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { constants as perf, PerformanceObserver } from "node:perf_hooks";
import { createTestDb } from "../helpers/db";
import { deletePrefix, uniquePrefix } from "../helpers/redis";
import { testAppContext, testConfig } from "../helpers/contexts";
import { createProductMirror } from "../../app/.server/catalog/product-mirror.repository";
import { catalogPayloadHash } from "../../app/.server/mapping/product.mapper";
import { adminReview, PRODUCTS } from "../../app/.server/google/feed.testkit";
import { signProxyQuery } from "../../app/.server/storefront/proxy/app-proxy-signature";
import type { AdminReview } from "../../app/.server/reviews";
import { BoundedSink } from "./bench-stack";
import { startServiceChild } from "./children";
import { percentile, round } from "./measure";
import { atMost, exactly, machineLoad, type BenchResult } from "./report";

// Scenario "google-feed": a shop's Google product ratings feed of N published reviews (100,000 at
// full size), fetched over real HTTP from the feed's route module as Merchant Center would: signed
// by the app proxy, then fetched again with the ETag it was given.
//
// Processes: the app serving the route is a child of its own (`--child google-feed`), so its memory
// is the figure. The reviews service is a stand-in in this process (its token endpoint and its
// listing, each page of 100 made on demand): the emulator sorts its whole store for every page,
// which at 100,000 reviews would measure the emulator. The catalog mirror holds 2,000 products:
// most with a GTIN, 5% without any identifier, 2% missing.
//
// Measured per N: time to the headers, to the first byte and to the first review, the whole body
// (time, bytes, reviews counted as they stream, nothing kept), the serving process's heap and RSS
// high-water above its level before the fetch (sampled every 10 ms, after a collection), and five
// revalidations with If-None-Match (each must be a 304).

const PRODUCT_COUNT = 2_000;
const PAGE = 100;
const SHOP = "google-feed-bench.myshopify.com";
const DOMAIN = "https://bench-feed.example";
/** Targets, checked at the largest N. */
export const GOOGLE_FEED_TARGETS = {
  /** The median of five: one slow answer on a shared 2-core machine is the machine's. */
  revalidateMs: 50,
  firstReviewMs: 1_000,
  /** What the heap holds while streaming (collected every 250 ms): the ids written, ~70 bytes each. */
  retainedGrowthMB: 32,
  /** What stays once the feed is written. */
  afterMB: 8,
  /** The feed is ~80 MB at 100,000 reviews: the process may not take more than that from the OS. */
  rssGrowthMB: 128,
  /** Flat: ten times the reviews may not double the heap's high-water (garbage included). */
  heapGrowthRatio: 2,
};

const keyOf = (i: number) => `gf-${String(i % PRODUCT_COUNT).padStart(5, "0")}`;
/** Product i's place in the catalog: 5% without an identifier, 2% not mirrored at all. */
const kindOf = (p: number): "ok" | "noId" | "missing" => (p % 50 === 7 ? "missing" : p % 20 === 3 ? "noId" : "ok");

// ---------- the service's listing, made on demand ----------

function review(i: number, customer: string): AdminReview {
  return adminReview({
    _id: i.toString(16).padStart(24, "0"),
    customer,
    userId: `shopify-customer-${i}`,
    name: i % 7 ? `Reviewer ${i}` : "",
    sku: keyOf(i),
    text: `Review ${i}: ${"good fabric, true to size & quick delivery. ".repeat(1 + (i % 5))}`,
    rating: 1 + (i % 5),
    verified: i % 3 !== 0,
    created: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    product: { _id: `prod-${i % PRODUCT_COUNT}`, sku: keyOf(i) },
  });
}

/**
 * The service: `POST {auth}/oauth/token` gives any client a token; `GET {base}/{customer}/reviews/all`
 * lists N published reviews, oldest first or newest moderated first.
 */
async function startListing(total: number): Promise<{ origin: string; pages: () => number; close(): Promise<void> }> {
  let pages = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://listing");
    if (req.method === "POST" && url.pathname === "/auth/oauth/token") {
      req.resume();
      return res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ access_token: "bench-token", expires_in: 3600, token_type: "Bearer" }));
    }
    const m = /^\/api\/([^/]+)\/reviews\/all$/.exec(url.pathname);
    if (!m || req.method !== "GET") return res.writeHead(404).end();
    pages++;
    const skip = Number(url.searchParams.get("skip") ?? 0);
    const newestFirst = url.searchParams.get("order")?.endsWith(",-1") ?? false;
    const results: AdminReview[] = [];
    for (let k = skip; k < Math.min(total, skip + PAGE); k++)
      results.push(review(newestFirst ? total - 1 - k : k, m[1]!));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results, total }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    pages: () => pages,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// ---------- the serving process ----------

interface ChildConfig {
  /** The stand-in service's origin. */
  service: string;
}

interface Marks {
  heapMB: number;
  rssMB: number;
  peakHeapMB: number;
  peakRssMB: number;
  /** The heap's high-water right after collections (`/reset?retained`). */
  retainedPeakMB: number;
  /** The heap after a collection once the fetch ended. */
  afterMB?: number;
  /** V8's own full collections meanwhile, and the heap just after each (what it still held then). */
  majorGcs: number;
  afterMajorPeakMB: number;
}

const MB = 1024 * 1024;

/** Warnings and errors of the serving process, shown as they come (a failing run says why). */
class ShownSink extends BoundedSink {
  _write(chunk: Buffer, enc: string, done: () => void) {
    process.stderr.write(chunk);
    super._write(chunk, enc, done);
  }
}

/** The feed's route module behind node:http, with a control port that collects and reads memory. */
export async function googleFeedChild(c: ChildConfig): Promise<{ ok: true }> {
  const t = await createTestDb("sqlite");
  process.env.DATABASE_URL = t.url;
  const prefix = uniquePrefix("bench-google-feed");
  const config = testConfig({
    DATABASE_URL: t.url,
    REDIS_PREFIX: prefix,
    REVIEWS_API_URL: `${c.service}/api`,
    REVIEWS_AUTH_URL: `${c.service}/auth`,
    REVIEWS_RATE_URL: `${c.service}/rate`,
    LOG_LEVEL: "warn",
  });
  const web = testAppContext(config, t.db, new ShownSink());
  (await import("../../app/.server/context.server")).setAppContext(web);
  const shop = await web.shops.connect({
    domain: SHOP,
    customerKey: "bench-feed",
    clientId: "bench-feed-client",
    clientSecret: "bench-feed-secret-0123456789",
  });
  await web.shops.setPrimaryDomain(SHOP, DOMAIN);
  const mirror = createProductMirror(web.db);
  const rows = [];
  for (let p = 0; p < PRODUCT_COUNT; p++) {
    const kind = kindOf(p);
    if (kind === "missing") continue;
    const base = kind === "noId" ? PRODUCTS.giftWrap : PRODUCTS.tee;
    const product = { ...base, sku: keyOf(p), reference: `product-${p}`, name: `Product ${p}` } as typeof base & {
      name: string;
      categories: string[];
    };
    rows.push({ productId: String(9_000_000_000 + p), sku: keyOf(p), hash: catalogPayloadHash(product), product });
  }
  for (let i = 0; i < rows.length; i += 500) await mirror.recordAccepted(shop.id, rows.slice(i, i + 500));

  // The web connection fails fast rather than queueing (as in production): ready before the first request.
  const redis = web.queues.redis;
  if (redis.status !== "ready") await once(redis, "ready");
  const route = await import("../../app/routes/apps.reviews.google-feed[.]xml");
  const loader = route.loader as unknown as (a: {
    request: Request;
    params: object;
    context: object;
  }) => Promise<Response>;
  const server = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const request = new Request(`https://reviews-app.test${req.url}`, {
      method: req.method,
      headers,
      signal: controller.signal,
    });
    const answer = await loader({ request, params: {}, context: {} });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (!answer.body) return res.end();
    const reader = answer.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Backpressure as a real server applies it: the next chunk is pulled once this one is taken.
      if (!res.write(value)) await once(res, "drain");
    }
    res.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");

  const gc = (globalThis as { gc?: () => void }).gc;
  const now = (): Marks => {
    const m = process.memoryUsage();
    return {
      heapMB: m.heapUsed / MB,
      rssMB: m.rss / MB,
      peakHeapMB: 0,
      peakRssMB: 0,
      retainedPeakMB: 0,
      majorGcs: 0,
      afterMajorPeakMB: 0,
    };
  };
  let marks = now();
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    marks.peakHeapMB = Math.max(marks.peakHeapMB, m.heapUsed / MB);
    marks.peakRssMB = Math.max(marks.peakRssMB, m.rss / MB);
  }, 10);
  // Read as each entry arrives, shortly after its collection: close to what survived it.
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if ((e as { detail?: { kind?: number } }).detail?.kind === perf.NODE_PERFORMANCE_GC_MAJOR) {
        marks.majorGcs++;
        marks.afterMajorPeakMB = Math.max(marks.afterMajorPeakMB, process.memoryUsage().heapUsed / MB);
      }
  }).observe({ entryTypes: ["gc"] });
  // What the heap holds, as opposed to garbage not yet collected: a collection every 250 ms (only
  // on a fetch measured for it: the collections slow the stream down).
  let retained: NodeJS.Timeout | undefined;
  // `/reset[?retained]`: collect, then start the high-water marks from here; `/read`: the marks so far.
  const control = createServer(async (req, res) => {
    if (req.url?.startsWith("/reset")) {
      clearInterval(retained);
      gc?.();
      // The forced collection's own entry arrives first: it is not one of the fetch's.
      await new Promise((r) => setTimeout(r, 50));
      marks = now();
      marks.peakHeapMB = marks.retainedPeakMB = marks.heapMB;
      marks.peakRssMB = marks.rssMB;
      if (req.url.endsWith("?retained") && gc)
        retained = setInterval(() => {
          gc();
          marks.retainedPeakMB = Math.max(marks.retainedPeakMB, process.memoryUsage().heapUsed / MB);
        }, 250);
    }
    if (req.url === "/read") {
      clearInterval(retained);
      const seen = { ...marks };
      // What stays once the feed is written.
      gc?.();
      return res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ ...seen, afterMB: process.memoryUsage().heapUsed / MB }));
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(marks));
  });
  control.listen(0, "127.0.0.1");
  await once(control, "listening");
  const port = (s: typeof server) => (s.address() as AddressInfo).port;
  process.stdout.write(
    `${JSON.stringify({ ready: true, origin: `http://127.0.0.1:${port(server)}`, control: `http://127.0.0.1:${port(control)}` })}\n`,
  );
  await new Promise<void>((resolve) => process.once("SIGTERM", () => resolve()));
  clearInterval(sample);
  server.close();
  control.close();
  await web.queues.close();
  await deletePrefix(prefix);
  await t.drop();
  return { ok: true };
}

// ---------- the fetches ----------

interface Fetched {
  status: number;
  headersMs: number;
  firstByteMs: number;
  firstReviewMs: number | null;
  totalMs: number;
  bytes: number;
  reviews: number;
  etag: string | null;
}

/** One GET over HTTP; the body is counted as it streams (`<review>` across chunk edges), not kept. */
function fetchFeed(origin: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const query = signProxyQuery(
    new URLSearchParams(),
    { shop: SHOP, loggedInCustomerId: "", pathPrefix: "/apps/reviews" },
    process.env.SHOPIFY_API_SECRET ?? "test-api-secret",
  );
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/apps/reviews/google-feed.xml?${query}`, {
      headers: { "x-forwarded-for": "203.0.113.50", ...headers },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const out: Fetched = {
        status: res.statusCode ?? 0,
        headersMs: performance.now() - started,
        firstByteMs: -1,
        firstReviewMs: null,
        totalMs: 0,
        bytes: 0,
        reviews: 0,
        etag: typeof res.headers.etag === "string" ? res.headers.etag : null,
      };
      let tail = "";
      res.on("data", (chunk: Buffer) => {
        if (out.firstByteMs < 0) out.firstByteMs = performance.now() - started;
        out.bytes += chunk.length;
        const text = tail + chunk.toString("latin1");
        const found = text.split("<review>").length - 1;
        if (found && out.firstReviewMs === null) out.firstReviewMs = performance.now() - started;
        out.reviews += found;
        tail = text.slice(-7);
      });
      res.on("error", reject);
      res.on("end", () => {
        out.totalMs = performance.now() - started;
        if (out.firstByteMs < 0) out.firstByteMs = out.totalMs;
        resolve(out);
      });
    });
    req.end();
  });
}

const control = async (url: string): Promise<Marks> => (await (await fetch(url)).json()) as Marks;

export async function runGoogleFeedBench(opts: { sizes: number[] }): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const n of opts.sizes) {
    const before = machineLoad();
    const listing = await startListing(n);
    const app = await startServiceChild<{ ok: true }>(
      ["--child", "google-feed", "--config", JSON.stringify({ service: listing.origin })],
      `google-feed ${n}`,
      ["--expose-gc"],
    );
    try {
      const { origin, control: ctl } = JSON.parse(app.ready) as { origin: string; control: string };
      // Warm-up: the route's modules, the token, the validators' reads (a HEAD builds no feed).
      const head = await new Promise<number>((resolve, reject) => {
        const q = signProxyQuery(
          new URLSearchParams(),
          { shop: SHOP, loggedInCustomerId: "", pathPrefix: "/apps/reviews" },
          process.env.SHOPIFY_API_SECRET ?? "test-api-secret",
        );
        httpRequest(`${origin}/apps/reviews/google-feed.xml?${q}`, { method: "HEAD" })
          .on("response", (r) => resolve(r.statusCode ?? 0))
          .on("error", reject)
          .end();
      });
      if (head !== 200) throw new Error(`warm-up HEAD answered ${head}`);
      const base = await control(`${ctl}/reset`);
      const pagesBefore = listing.pages();
      console.log(`  [google-feed] ${n.toLocaleString("en-US")} reviews: fetching the whole feed…`);
      const whole = await fetchFeed(origin);
      const marks = await control(`${ctl}/read`);
      if (whole.status !== 200 || !whole.etag) throw new Error(`whole feed answered ${whole.status}`);
      const pagesRead = listing.pages() - pagesBefore;
      const again: Fetched[] = [];
      for (let i = 0; i < 5; i++) again.push(await fetchFeed(origin, { "if-none-match": whole.etag }));
      const revalidations = again.map((f) => f.totalMs);
      // A second whole feed (no ETag sent), the heap collected every 250 ms meanwhile.
      await control(`${ctl}/reset?retained`);
      const second = await fetchFeed(origin);
      const held = await control(`${ctl}/read`);
      if (second.status !== 200 || second.reviews !== whole.reviews)
        throw new Error(`second whole feed: ${second.status}, ${second.reviews} reviews`);
      const retainedGrowth = held.retainedPeakMB - held.heapMB;
      const expected = Array.from({ length: n }, (_, i) => kindOf(i % PRODUCT_COUNT)).filter((k) => k === "ok").length;
      const heapGrowth = marks.peakHeapMB - base.heapMB;
      const rssGrowth = marks.peakRssMB - base.rssMB;
      const largest = n === Math.max(...opts.sizes);
      results.push({
        scenario: `google-feed ${n.toLocaleString("en-US")} reviews`,
        figures: {
          "published reviews": n,
          "reviews in the feed": whole.reviews,
          "feed size (MB)": round(whole.bytes / MB, 1),
          "service pages read (100 each, + validators)": pagesRead,
          "time to headers (ms)": round(whole.headersMs, 0),
          "time to first byte (ms)": round(whole.firstByteMs, 0),
          "time to first review (ms)": round(whole.firstReviewMs ?? -1, 0),
          "whole feed (s)": round(whole.totalMs / 1000, 2),
          "throughput (reviews/s)": Math.round(whole.reviews / (whole.totalMs / 1000)),
          "serving process heap before (MB)": round(base.heapMB, 1),
          "heap high-water above before (MB)": round(heapGrowth, 1),
          "serving process RSS before (MB)": round(base.rssMB, 1),
          "RSS high-water above before (MB)": round(rssGrowth, 1),
          "V8 full collections during the whole feed": marks.majorGcs,
          "heap just after those, max above before (MB)": round(Math.max(0, marks.afterMajorPeakMB - base.heapMB), 1),
          "heap after the feed, collected, above before (MB)": round((marks.afterMB ?? 0) - base.heapMB, 1),
          "second whole feed, heap collected every 250 ms: high-water above before (MB)": round(retainedGrowth, 1),
          "second whole feed (s, slowed by those collections)": round(second.totalMs / 1000, 2),
          "revalidation statuses": [...new Set(again.map((f) => f.status))].join(", "),
          "revalidation 304 (ms, median of 5)": round(percentile(revalidations, 50), 1),
          "revalidation 304 (ms, each)": revalidations.map((ms) => round(ms, 0)).join(", "),
          "revalidation 304 (ms, max of 5)": round(Math.max(...revalidations), 1),
          "machine load, 1-min avg (before / after)": `${before} / ${machineLoad()}`,
        },
        targets: {
          "reviews in the feed = published with a matchable product": exactly(whole.reviews, expected),
          "revalidations answered 304": exactly(again.filter((f) => f.status === 304).length, again.length),
          ...(largest
            ? {
                "revalidation 304, median of 5 (ms)": atMost(
                  percentile(revalidations, 50),
                  GOOGLE_FEED_TARGETS.revalidateMs,
                ),
                "time to first review (ms)": atMost(whole.firstReviewMs ?? Infinity, GOOGLE_FEED_TARGETS.firstReviewMs),
                "heap retained while streaming, above before (MB)": atMost(
                  retainedGrowth,
                  GOOGLE_FEED_TARGETS.retainedGrowthMB,
                ),
                "heap after the feed, above before (MB)": atMost(
                  (marks.afterMB ?? 0) - base.heapMB,
                  GOOGLE_FEED_TARGETS.afterMB,
                ),
                "RSS high-water above before (MB)": atMost(rssGrowth, GOOGLE_FEED_TARGETS.rssGrowthMB),
              }
            : {}),
        },
      });
    } finally {
      await app.stop();
      await listing.close();
    }
  }
  // Flatness: the heap's high-water at the largest N against the smallest, when both ran.
  const growth = (r: BenchResult) => Number(r.figures["heap high-water above before (MB)"]);
  if (results.length > 1) {
    const [small, large] = [results[0]!, results.at(-1)!];
    const ratio = round(growth(large) / Math.max(growth(small), 1), 2);
    large.figures["heap high-water growth vs smallest N (×)"] = ratio;
    large.targets!["heap high-water growth vs smallest N (×)"] = atMost(ratio, GOOGLE_FEED_TARGETS.heapGrowthRatio);
  }
  return results;
}
