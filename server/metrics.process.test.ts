import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebStack, type WebStack } from "../test/faults/web-stack";
import type { WorkerProcess } from "../test/faults/worker-process";
import { builtApp, startWebProcess, type WebProcess } from "../test/helpers/built-app";
import { eventually } from "../test/helpers/contexts";
import { signedWebhookRequest } from "../test/helpers/webhooks";

// Metrics as Prometheus reads them: the web process (npm start) and a worker (npm run worker), each
// scraped on its own port with the token, while a webhook goes through and the service answers a
// 429 once.

const TOKEN = "metrics-token-0123456789";
const SHOP = "metrics.myshopify.com";
const tee = JSON.parse(readFileSync("test/fixtures/products/apparel-tee.products-update.json", "utf8"));
let s: WebStack;
let web: WebProcess;
let worker: WorkerProcess;

beforeAll(async () => {
  const buildDir = await builtApp();
  s = await startWebStack("metrics");
  await s.connect(SHOP, "acme");
  const env = { METRICS_TOKEN: TOKEN, CATALOG_FLUSH_WINDOW_MS: "100" };
  web = await startWebProcess(buildDir, {
    ...env,
    DATABASE_URL: s.t.url,
    REDIS_URL: s.config.REDIS_URL,
    REDIS_PREFIX: s.prefix,
    REVIEWS_API_URL: s.emu.baseUrl,
    REVIEWS_AUTH_URL: s.emu.authUrl,
    REVIEWS_RATE_URL: s.emu.rateUrl,
    METRICS_PORT: "0",
  });
  worker = await s.startWorker({ ...env, WORKER_METRICS_PORT: "0" });
}, 240_000);
afterAll(async () => {
  web?.signal("SIGTERM");
  await web?.exited;
  await s?.close();
});

const portFrom = (lines: string) => Number(/"port":(\d+)[^\n]*"msg":"metrics listening"/.exec(lines)?.[1]);

async function scrape(port: number, token: string | null = TOKEN) {
  const res = await fetch(
    `http://127.0.0.1:${port}/metrics`,
    token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  );
  return { status: res.status, text: await res.text() };
}

/** The sum of a metric's samples whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? ([^ ]+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/([a-z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

describe("metrics of real processes", () => {
  it("GIVEN no token or a wrong one THEN the scrape is refused (401); with it, the process's metrics", async () => {
    const port = portFrom(web.lines.join("\n"));
    expect((await scrape(port, null)).status).toBe(401);
    expect((await scrape(port, "metrics-token-wrong-000000")).status).toBe(401);
    const ok = await scrape(port);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain("# TYPE reviews_webhooks_received_total counter");
    expect(ok.text).toContain("process_resident_memory_bytes");
  });

  it("GIVEN a signed and an unsigned webhook, and a 429 from the service THEN web and worker counters move", async () => {
    const webPort = portFrom(web.lines.join("\n"));
    const workerPort = await eventually(
      async () => portFrom(worker.tail()),
      (p) => p > 0,
    );
    s.emu.control.setFaults({ rateLimit: { count: 1, retryAfterSeconds: 1 }, paths: "/products/batch" });

    const signed = signedWebhookRequest({
      topic: "products/update",
      shop: SHOP,
      payload: { ...tee, title: "Counted tee" },
      url: `${web.url}/webhooks/products/update`,
    });
    expect((await fetch(signed)).status).toBe(200);
    const unsigned = await fetch(`${web.url}/webhooks/products/update`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(unsigned.status).toBe(401);

    const webText = (await scrape(webPort)).text;
    expect(sample(webText, "reviews_webhooks_received_total", { topic: "products/update", status: "200" })).toBe(1);
    expect(sample(webText, "reviews_webhooks_received_total", { topic: "products/update", status: "401" })).toBe(1);
    expect(sample(webText, "reviews_webhook_ack_seconds_count", { topic: "products/update" })).toBe(2);

    await eventually(
      async () => s.emu.control.state("acme").products.find((p) => p.sku === String(tee.id))?.name,
      (n) => n === "Counted tee",
      30_000,
    );
    s.emu.control.clearFaults();
    const text = await eventually(
      async () => (await scrape(workerPort)).text,
      (t) => sample(t, "reviews_jobs_total", { queue: "catalog", outcome: "completed" }) >= 1,
      15_000,
    );
    expect(sample(text, "reviews_jobs_total", { queue: "webhooks", outcome: "completed" })).toBe(1);
    expect(sample(text, "reviews_job_duration_seconds_count", { queue: "webhooks" })).toBe(1);
    expect(
      sample(text, "reviews_service_requests_total", { api: "admin", endpoint: "POST products/batch", status: "429" }),
    ).toBe(1);
    expect(
      sample(text, "reviews_service_requests_total", { api: "admin", endpoint: "POST products/batch", status: "200" }),
    ).toBe(1);
    expect(sample(text, "reviews_service_pauses_total")).toBe(1);
    expect(sample(text, "reviews_service_pause_seconds_total")).toBe(1);
    for (const queue of ["webhooks", "catalog", "sync", "maintenance"]) {
      expect(text).toMatch(new RegExp(`^reviews_queue_jobs\\{queue="${queue}",state="waiting"\\} \\d+$`, "m"));
      expect(text).toMatch(new RegExp(`^reviews_queue_oldest_waiting_seconds\\{queue="${queue}"\\} [\\d.]+$`, "m"));
    }
  });
});
