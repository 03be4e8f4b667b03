import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { generateProduct, productWebhookPayload } from "../../sandbox/simulated-store";
import { createTestDb } from "../helpers/db";
import { deletePrefix, redisUrl, uniquePrefix } from "../helpers/redis";
import { LogSink, testAppContext, testConfig } from "../helpers/contexts";
import { signBody } from "../helpers/webhooks";
import { QueueName } from "../../app/.server/queues/names";
import { startServiceChild } from "./children";
import { percentile, progress, round } from "./measure";
import { atMost, exactly, machineLoad, type BenchResult } from "./report";

// Scenario "ingress": sustained webhook load on the web process. A real HTTP server on loopback
// (node:http, each request turned into a Fetch Request and handed to the route module's action,
// as Remix does) serves the webhook routes in a process of its own. This process drives it open
// loop: delivery i leaves at t0 + i/rate whether or not earlier ones were answered, so a slow
// answer cannot slow the offered load down and hide itself (no coordinated omission). Every
// delivery has its own webhook id and a valid HMAC of its own body.
// Measured: acknowledgement latency (request sent → response read) p50/p99/max, non-2xx answers,
// and that every acknowledged delivery is stored: the jobs in the webhooks queue afterwards. No
// worker runs, so the web process has the machine to itself and the jobs stay waiting to be counted.

export const INGRESS_SHOP = "bench-ingress.myshopify.com";
export const INGRESS_TARGET_P99_MS = 50;
const PRODUCT_SHARE = 0.8;
const TOPICS = ["products/update", "orders/updated"] as const;
/** Seconds of load at the same rate before the measured run: JIT, connection pools, lazy modules. */
const WARMUP_SECONDS = 3;
const RESET_PATH = "/__bench/reset";

export interface IngressServerFigures {
  stored: number;
  storedByState: Record<string, number>;
  serverP50Ms: number;
  serverP99Ms: number;
  serverMaxMs: number;
  handled: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  peakRssMB: number;
  warnings: number;
}

/** Counts log lines (warnings and errors) without keeping them. */
class CountingSink extends LogSink {
  count = 0;
  _write(_chunk: Buffer, _enc: string, done: () => void) {
    this.count++;
    done();
  }
}

// ---------- the web process (a child: `main.ts --child ingress --port P`) ----------

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** Serves POST /webhooks/<topic> through the topic's route module until SIGTERM; then counts what was stored. */
export async function ingressServerChild(port: number): Promise<IngressServerFigures> {
  const t = await createTestDb("sqlite");
  // db.server (imported by the route modules) reads it when first imported.
  process.env.DATABASE_URL = t.url;
  const prefix = uniquePrefix("bench-ingress");
  const config = testConfig({ DATABASE_URL: t.url, REDIS_PREFIX: prefix, LOG_LEVEL: "warn" });
  const sink = new CountingSink();
  const web = testAppContext(config, t.db, sink);
  const { setAppContext } = await import("../../app/.server/context.server");
  setAppContext(web);
  type Action = (a: { request: Request; params: object; context: object }) => Promise<Response>;
  const actions = new Map<string, Action>();
  for (const topic of TOPICS)
    actions.set(
      `/webhooks/${topic}`,
      (await import(`../../app/routes/webhooks.${topic.replace("/", ".")}.tsx`)).action as Action,
    );
  await web.queues.ready(5000);

  const handledMs: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let peakRss = process.memoryUsage.rss();
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 250);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      if (req.url === RESET_PATH) {
        // The warm-up is over: what follows is measured.
        handledMs.length = 0;
        loop.reset();
        res.writeHead(204).end();
        return;
      }
      const action = actions.get(req.url ?? "");
      let response: Response;
      try {
        response = action
          ? await action({
              request: new Request(`http://127.0.0.1:${port}${req.url}`, {
                method: req.method,
                headers: headersOf(req),
                body: Buffer.concat(chunks),
              }),
              params: {},
              context: {},
            })
          : new Response(null, { status: 404 });
      } catch (error) {
        if (error instanceof Response) response = error;
        else {
          progress(`route threw: ${(error as Error).message}`);
          response = new Response(null, { status: 500 });
        }
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
      handledMs.push(performance.now() - started);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const stopped = new Promise<void>((resolve) => process.once("SIGTERM", () => resolve()));
  process.stdout.write(`${JSON.stringify({ ready: true, port: (server.address() as AddressInfo).port })}\n`);
  await stopped;

  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  clearInterval(rssTimer);
  loop.disable();
  const counts = await web.queues
    .get(QueueName.webhooks)
    .getJobCounts("waiting", "active", "delayed", "prioritized", "completed", "failed", "waiting-children");
  const stored = Object.values(counts).reduce((a, b) => a + b, 0);
  await web.queues.close();
  await deletePrefix(prefix);
  await t.drop();
  return {
    stored,
    storedByState: Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)),
    serverP50Ms: round(percentile(handledMs, 50), 2),
    serverP99Ms: round(percentile(handledMs, 99), 2),
    serverMaxMs: round(Math.max(0, ...handledMs), 2),
    handled: handledMs.length,
    eventLoopDelayP99Ms: round(loop.percentile(99) / 1e6, 2),
    eventLoopDelayMaxMs: round(loop.max / 1e6, 2),
    peakRssMB: Math.round(peakRss / 2 ** 20),
    warnings: sink.count,
  };
}

// ---------- the load (in the orchestrator) ----------

interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Every delivery made before the clock starts: the driver only writes bytes while it runs. */
function deliveries(total: number, seed: number): Delivery[] {
  const secret = process.env.SHOPIFY_API_SECRET ?? "test-api-secret";
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

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
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

export async function runIngressLoadBench(o: { rate: number; seconds: number; seed: number }): Promise<BenchResult[]> {
  const total = o.rate * o.seconds;
  const warmup = o.rate * WARMUP_SECONDS;
  console.log(
    `ingress load: ${o.rate} signed deliveries per second for ${o.seconds} s (${total.toLocaleString("en-US")}) after ${WARMUP_SECONDS} s of warm-up, open loop`,
  );
  const all = deliveries(warmup + total, o.seed);
  const port = await freePort();
  const server = await startServiceChild<IngressServerFigures>(
    ["--child", "ingress", "--port", String(port)],
    "ingress",
  );
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let figures: IngressServerFigures | undefined;
  try {
    const warm = await drive(agent, port, all.slice(0, warmup), o.rate);
    await new Promise<void>((resolve, reject) =>
      httpRequest({ host: "127.0.0.1", port, method: "POST", path: RESET_PATH, agent }, (res) =>
        res.resume().once("end", resolve),
      )
        .once("error", reject)
        .end(),
    );
    const pinger = redisPinger();
    const { latencies, statuses, lateMaxMs, seconds } = await drive(agent, port, all.slice(warmup), o.rate, true);
    const redisPing = await pinger.stop();
    figures = await server.stop();
    const acked = [...statuses.entries()].filter(([st]) => st >= 200 && st < 300).reduce((a, [, n]) => a + n, 0);
    const non2xx = total - acked;
    // The warm-up deliveries are stored too: every one of them must have been acknowledged.
    const warmAcked = warm.statuses.get(200) ?? 0;
    const storedOfRun = figures.stored - warmAcked;
    const p50 = round(percentile(latencies, 50), 2);
    const p99 = round(percentile(latencies, 99), 2);
    console.log(
      `  → ack p50 ${p50} ms / p99 ${p99} ms / max ${round(Math.max(...latencies), 1)} ms, non-2xx ${non2xx}, stored ${storedOfRun} of ${total}`,
    );
    return [
      {
        scenario: `ingress load (${o.rate} deliveries/s for ${o.seconds} s)`,
        figures: {
          "deliveries sent": total,
          "offered rate (deliveries/s)": round(total / seconds, 1),
          "driver lateness max (ms, send behind schedule)": round(lateMaxMs, 1),
          topics: `${Math.round(PRODUCT_SHARE * 100)}% products/update, ${Math.round((1 - PRODUCT_SHARE) * 100)}% orders/updated`,
          [`warm-up before it, not counted (${warmup} deliveries in ${WARMUP_SECONDS} s): ack p99 / max (ms)`]: `${round(percentile(warm.latencies, 99), 1)} / ${round(Math.max(0, ...warm.latencies), 1)}`,
          "ack latency p50 (ms)": p50,
          "ack latency p99 (ms)": p99,
          "ack latency max (ms)": round(Math.max(...latencies), 2),
          "acks slower than the p99 target": latencies.filter((ms) => ms > INGRESS_TARGET_P99_MS).length,
          "answers by status": [...statuses.entries()]
            .sort(([a], [b]) => a - b)
            .map(([st, n]) => `${st || "error"}×${n}`)
            .join(", "),
          "non-2xx answers": non2xx,
          "jobs stored in Redis (webhooks queue)": storedOfRun,
          "server-side handling p50 / p99 / max (ms)": `${figures.serverP50Ms} / ${figures.serverP99Ms} / ${figures.serverMaxMs}`,
          "web process event-loop delay p99 / max (ms)": `${figures.eventLoopDelayP99Ms} / ${figures.eventLoopDelayMaxMs}`,
          "Redis PING from the driver meanwhile, p99 / max (ms)": `${redisPing.p99} / ${redisPing.max}`,
          "web process peak RSS (MB)": figures.peakRssMB,
          "warnings logged": figures.warnings,
        },
        targets: {
          "ack latency p99 (ms)": atMost(p99, INGRESS_TARGET_P99_MS),
          "non-2xx answers": atMost(non2xx, 0),
          "deliveries stored = deliveries sent": exactly(storedOfRun, total),
        },
      },
    ];
  } finally {
    agent.destroy();
    if (!figures) await server.stop().catch(() => undefined);
  }
}
