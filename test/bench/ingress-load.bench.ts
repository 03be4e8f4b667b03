import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { generateProduct, productWebhookPayload } from "../../sandbox/simulated-store";
import { createTestDb } from "../helpers/db";
import { deletePrefix, redisUrl, uniquePrefix } from "../helpers/redis";
import { signBody } from "../helpers/webhooks";
import { QueueName } from "../../app/.server/queues/names";
import { queuePrefix } from "../../app/.server/queues/keyspace";
import { builtApp } from "../helpers/built-app";
import {
  cpuSecondsOf,
  freePort,
  peakRssOf,
  scrapeMetrics,
  startMeasuredWebProcess,
  startServiceChild,
} from "./children";
import { percentile, progress, round } from "./measure";
import { atMost, exactly, machineLoad, type BenchResult } from "./report";

// Scenario "ingress": sustained webhook load on the web process as production runs it (`npm run
// build`, then server/main.ts: express, the Remix request handler, the webhook route), and beside it
// in the same run a baseline: a bare node:http server that checks the same HMAC and writes each
// delivery to Redis once. Both are driven by the same load generator in this process, open loop:
// delivery i leaves at t0 + i/rate whether or not earlier ones were answered, so a slow answer
// cannot slow the offered load down and hide itself (no coordinated omission). Every delivery has
// its own webhook id and a valid HMAC of its own body. The app's figures read as a multiple of the
// baseline's: what this box can do at all with one Redis write per delivery.
// Measured: acknowledgement latency (request sent → response read) p50/p99/max, non-2xx answers,
// that every acknowledged delivery is stored (the jobs in the webhooks queue afterwards), the
// server's CPU and event-loop delay. No worker runs, so the jobs stay waiting to be counted.

export const INGRESS_SHOP = "bench-ingress.myshopify.com";
export const INGRESS_TARGET_P99_MS = 50;
const PRODUCT_SHARE = 0.8;
const TOPICS = ["products/update", "orders/updated"] as const;
/** Seconds of load at the same rate before the measured run: JIT, connection pools, lazy modules. */
const WARMUP_SECONDS = 3;
const SECRET = () => process.env.SHOPIFY_API_SECRET ?? "test-api-secret";

export interface BareFigures {
  stored: number;
  refused: number;
}

// ---------- the baseline (a child: `main.ts --child ingress-bare --port P --prefix K`) ----------

/** The least a webhook server must do: read the body, check its HMAC, write it to Redis once, answer. */
export async function bareIngressChild(port: number, prefix: string): Promise<BareFigures> {
  const redis = new Redis(redisUrl());
  const secret = Buffer.from(SECRET());
  let stored = 0;
  let refused = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const given = Buffer.from(String(req.headers["x-shopify-hmac-sha256"] ?? ""), "base64");
      const expected = createHmac("sha256", secret).update(body).digest();
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        refused++;
        res.writeHead(401).end();
        return;
      }
      redis.set(`${prefix}:delivery:${String(req.headers["x-shopify-webhook-id"])}`, body, "EX", 600).then(
        () => {
          stored++;
          res.writeHead(200).end();
        },
        () => res.writeHead(503).end(),
      );
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const stopped = new Promise<void>((resolve) => process.once("SIGTERM", () => resolve()));
  process.stdout.write(`${JSON.stringify({ ready: true, port: (server.address() as AddressInfo).port })}\n`);
  await stopped;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  redis.disconnect();
  return { stored, refused };
}

// ---------- the load (in the orchestrator) ----------

interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Every delivery made before the clock starts: the driver only writes bytes while it runs. */
function deliveries(total: number, seed: number): Delivery[] {
  const secret = SECRET();
  const products = Array.from({ length: 200 }, (_, i) => productWebhookPayload(generateProduct(i, seed)));
  const order = JSON.parse(
    readFileSync(new URL("../fixtures/orders/paid-web-customer.json", import.meta.url), "utf8"),
  ) as Record<string, unknown>;
  const run = randomBytes(4).toString("hex");
  return Array.from({ length: total }, (_, i) => {
    const topic = i % 10 < PRODUCT_SHARE * 10 ? TOPICS[0] : TOPICS[1];
    const updatedAt = new Date(Date.UTC(2026, 10, 20) + i * 1000).toISOString();
    const payload =
      topic === TOPICS[0]
        ? { ...products[i % products.length], updated_at: updatedAt }
        : { ...order, id: 6_000_000_000_000 + i, updated_at: updatedAt };
    const body = Buffer.from(JSON.stringify(payload));
    return {
      path: `/webhooks/${topic}`,
      body,
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        "x-shopify-topic": topic,
        "x-shopify-shop-domain": INGRESS_SHOP,
        "x-shopify-hmac-sha256": signBody(body.toString("utf8"), secret),
        "x-shopify-webhook-id": `ingress-${run}-${i}`,
        "x-shopify-event-id": `event-${run}-${i}`,
        "x-shopify-api-version": "2026-10",
        "x-shopify-triggered-at": updatedAt,
      },
    };
  });
}

function post(agent: Agent, port: number, d: Delivery): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: "POST", path: d.path, headers: d.headers, agent },
      (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode ?? 0));
        res.once("error", reject);
      },
    );
    req.once("error", reject);
    req.end(d.body);
  });
}

/**
 * PINGs Redis every 100 ms while the load runs: Redis is shared (other processes, other runs), and
 * a stall there shows in every ack, so the report says how Redis itself answered meanwhile.
 */
function redisPinger() {
  const redis = new Redis(redisUrl(), { maxRetriesPerRequest: 1 });
  const rtts: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await redis.ping().catch(() => undefined);
      rtts.push(performance.now() - started);
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      redis.disconnect();
      return { p99: round(percentile(rtts, 99), 2), max: round(Math.max(0, ...rtts), 2) };
    },
  };
}

interface Driven {
  latencies: number[];
  statuses: Map<number, number>;
  lateMaxMs: number;
  seconds: number;
}

/** Sends `list` open loop at `rate` per second and waits for every answer. */
async function drive(agent: Agent, port: number, list: Delivery[], rate: number, report = false): Promise<Driven> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const interval = 1000 / rate;
  const inflight: Promise<void>[] = [];
  let lateMaxMs = 0;
  let windowStart = 0;
  const t0 = performance.now();
  for (let i = 0; i < list.length; i++) {
    const due = t0 + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    lateMaxMs = Math.max(lateMaxMs, performance.now() - due);
    const sentAt = performance.now();
    inflight.push(
      post(agent, port, list[i]!).then(
        (status) => {
          latencies.push(performance.now() - sentAt);
          count(status);
        },
        () => {
          count(0);
        },
      ),
    );
    if (report && (i + 1) % (rate * 10) === 0) {
      // Per 10 s window: a p99 that grows window after window points at the app (a queue that
      // slows as it fills); one bad window among good ones points at the machine.
      progress(
        `  ${(i + 1).toLocaleString("en-US")} sent; last 10 s: ack p99 ${round(percentile(latencies.slice(windowStart), 99), 1)} ms, load ${machineLoad()}`,
      );
      windowStart = latencies.length;
    }
  }
  await Promise.all(inflight);
  return { latencies, statuses, lateMaxMs, seconds: (performance.now() - t0) / 1000 };
}

/** The p-th percentile's upper bucket bound (ms) of the webhook ack histogram between two scrapes. */
function histogramBoundMs(before: Map<string, number>, after: Map<string, number>, p: number): string {
  const buckets = [...after.entries()]
    .filter(([name]) => name.startsWith("reviews_webhook_ack_seconds_bucket"))
    .map(([name, n]) => ({ le: /le="([^"]+)"/.exec(name)![1]!, n: n - (before.get(name) ?? 0) }));
  const byBound = new Map<string, number>();
  for (const b of buckets) byBound.set(b.le, (byBound.get(b.le) ?? 0) + b.n);
  const bounds = [...byBound.entries()].sort(([a], [b]) => (a === "+Inf" ? 1 : b === "+Inf" ? -1 : +a - +b));
  const total = byBound.get("+Inf") ?? 0;
  const hit = bounds.find(([, n]) => n >= (p / 100) * total);
  return !hit ? "n/a" : hit[0] === "+Inf" ? "> 30,000" : `≤ ${Number(hit[0]) * 1000}`;
}

interface Target {
  label: string;
  port: number;
  pid: number;
  /** Called after the warm-up: what follows is measured. */
  warmedUp(): Promise<void>;
  /** Stops the server and says what it stored and saw while measured. */
  finish(): Promise<{ stored: number; extra: Record<string, string | number> }>;
}

async function bareTarget(): Promise<Target> {
  const port = await freePort();
  const prefix = uniquePrefix("bench-ingress-bare");
  const child = await startServiceChild<BareFigures>(
    ["--child", "ingress-bare", "--port", String(port), "--prefix", prefix],
    "bare",
  );
  let stored = 0;
  return {
    label: "bare node:http + HMAC + one Redis SET",
    port,
    pid: child.pid!,
    async warmedUp() {
      const redis = new Redis(redisUrl());
      // The warm-up's keys go, so the count at the end is the measured run's alone.
      await deletePrefix(prefix);
      redis.disconnect();
    },
    async finish() {
      const figures = await child.stop();
      stored = figures.stored;
      const redis = new Redis(redisUrl());
      let keys = 0;
      let cursor = "0";
      do {
        const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}:delivery:*`, "COUNT", 1000);
        cursor = next;
        keys += batch.length;
      } while (cursor !== "0");
      redis.disconnect();
      await deletePrefix(prefix);
      return { stored: keys, extra: { "answered 200 by the server": stored, refused: figures.refused } };
    },
  };
}

async function appTarget(): Promise<Target> {
  const t = await createTestDb("sqlite");
  const prefix = uniquePrefix("bench-ingress");
  const { web, metricsUrl } = await startMeasuredWebProcess({
    DATABASE_URL: t.url,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: prefix,
    SHOPIFY_API_SECRET: SECRET(),
  });
  const queue = new Queue(QueueName.webhooks, {
    connection: { url: redisUrl() },
    prefix: queuePrefix({ REDIS_PREFIX: prefix, REDIS_CLUSTER: false }, QueueName.webhooks),
  });
  let before = new Map<string, number>();
  let warmJobs = 0;
  return {
    label: "the app (npm start: express + Remix + the webhook route)",
    port: web.port,
    pid: web.pid,
    async warmedUp() {
      warmJobs = await queue.count();
      // prom-client resets its event-loop histogram at each scrape: this one starts the measured window.
      before = await scrapeMetrics(metricsUrl);
    },
    async finish() {
      const after = await scrapeMetrics(metricsUrl);
      const stored = (await queue.count()) - warmJobs;
      const peakRss = peakRssOf(web.pid) ?? "n/a";
      web.signal("SIGTERM");
      await web.exited;
      await queue.close();
      await deletePrefix(prefix);
      await t.drop();
      const ms = (name: string) => round((after.get(name) ?? Number.NaN) * 1000, 1);
      return {
        stored,
        extra: {
          "server-side handling p50 / p99 (ms, histogram bucket)": `${histogramBoundMs(before, after, 50)} / ${histogramBoundMs(before, after, 99)}`,
          "event-loop delay p99 / max (ms)": `${ms("nodejs_eventloop_lag_p99_seconds")} / ${ms("nodejs_eventloop_lag_max_seconds")}`,
          "peak RSS (MB)": peakRss,
          "warnings or errors logged": web.lines.filter((l) => /"level":(40|50|60)/.test(l)).length,
        },
      };
    },
  };
}

interface Phase {
  label: string;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  stored: number;
  statuses: string;
  lateMaxMs: number;
  seconds: number;
  cpuPercent: number;
  warmP99: number;
  redisPing: { p99: number; max: number };
  extra: Record<string, string | number>;
}

async function measure(target: Target, all: Delivery[], warmup: number, rate: number): Promise<Phase> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  try {
    progress(`  ${target.label}: warm-up`);
    const warm = await drive(agent, target.port, all.slice(0, warmup), rate);
    await target.warmedUp();
    const pinger = redisPinger();
    const cpuBefore = cpuSecondsOf(target.pid);
    const { latencies, statuses, lateMaxMs, seconds } = await drive(agent, target.port, all.slice(warmup), rate, true);
    const cpu = cpuSecondsOf(target.pid) - cpuBefore;
    const redisPing = await pinger.stop();
    const { stored, extra } = await target.finish();
    const total = all.length - warmup;
    const acked = [...statuses.entries()].filter(([st]) => st >= 200 && st < 300).reduce((a, [, n]) => a + n, 0);
    const phase: Phase = {
      label: target.label,
      p50: round(percentile(latencies, 50), 2),
      p99: round(percentile(latencies, 99), 2),
      max: round(Math.max(0, ...latencies), 2),
      non2xx: total - acked,
      stored,
      statuses: [...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([st, n]) => `${st || "error"}×${n}`)
        .join(", "),
      lateMaxMs: round(lateMaxMs, 1),
      seconds,
      cpuPercent: round((cpu / seconds) * 100, 0),
      warmP99: round(percentile(warm.latencies, 99), 1),
      redisPing,
      extra,
    };
    progress(
      `  → ${target.label}: ack p50 ${phase.p50} ms / p99 ${phase.p99} ms / max ${phase.max} ms, non-2xx ${phase.non2xx}, stored ${stored} of ${total}, CPU ${phase.cpuPercent}% of a core`,
    );
    return phase;
  } finally {
    agent.destroy();
  }
}

export async function runIngressLoadBench(o: { rate: number; seconds: number; seed: number }): Promise<BenchResult[]> {
  const total = o.rate * o.seconds;
  const warmup = o.rate * WARMUP_SECONDS;
  console.log(
    `ingress load: ${o.rate} signed deliveries per second for ${o.seconds} s (${total.toLocaleString("en-US")}) after ${WARMUP_SECONDS} s of warm-up, open loop; a bare server first, then the app`,
  );
  // The build first, so it does not run beside the baseline.
  await builtApp();
  const bare = await measure(await bareTarget(), deliveries(warmup + total, o.seed), warmup, o.rate);
  const app = await measure(await appTarget(), deliveries(warmup + total, o.seed), warmup, o.rate);
  const row = (f: (p: Phase) => string | number) => `${f(app)} | ${f(bare)}`;
  const extraKeys = [...new Set([...Object.keys(app.extra), ...Object.keys(bare.extra)])];
  return [
    {
      scenario: `ingress load (${o.rate} deliveries/s for ${o.seconds} s)`,
      figures: {
        "deliveries sent (each server)": total,
        "offered rate (deliveries/s)": round(total / app.seconds, 1),
        topics: `${Math.round(PRODUCT_SHARE * 100)}% products/update, ${Math.round((1 - PRODUCT_SHARE) * 100)}% orders/updated`,
        columns: "the app | bare baseline (same load generator, same run)",
        "driver lateness max (ms, send behind schedule)": row((p) => p.lateMaxMs),
        [`warm-up, not counted (${warmup} deliveries in ${WARMUP_SECONDS} s): ack p99 (ms)`]: row((p) => p.warmP99),
        "ack latency p50 (ms)": row((p) => p.p50),
        "ack latency p99 (ms)": row((p) => p.p99),
        "ack latency max (ms)": row((p) => p.max),
        "app ack p99 ÷ bare ack p99": round(app.p99 / bare.p99, 2),
        "answers by status": row((p) => p.statuses),
        "non-2xx answers": row((p) => p.non2xx),
        "deliveries stored in Redis": row((p) => p.stored),
        "server CPU (% of one core)": row((p) => p.cpuPercent),
        "Redis PING from the driver meanwhile, p99 / max (ms)": row((p) => `${p.redisPing.p99} / ${p.redisPing.max}`),
        ...Object.fromEntries(extraKeys.map((k) => [k, row((p) => p.extra[k] ?? "—")])),
      },
      targets: {
        "ack latency p99 (ms)": atMost(app.p99, INGRESS_TARGET_P99_MS),
        "non-2xx answers": atMost(app.non2xx, 0),
        "deliveries stored = deliveries sent": exactly(app.stored, total),
      },
    },
  ];
}
