import { readdirSync, readFileSync, statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import { builtApp, startWebProcess, type WebProcess } from "../test/helpers/built-app";
import { createTestDb, type TestDb } from "../test/helpers/db";
import { deletePrefix, redisUrl, uniquePrefix } from "../test/helpers/redis";
import { eventually } from "../test/helpers/contexts";
import { signBody } from "../test/helpers/webhooks";
import { QueueName } from "../app/.server/queues/names";

// The web process as `npm start` runs it, on a real build, Redis and database: what it answers, and
// what SIGTERM does with a request in flight.

const SHUTDOWN_TIMEOUT_MS = 6000;
const SHUTDOWN_DELAY_MS = 800;
let buildDir: string;
let t: TestDb;
let prefix: string;
let web: WebProcess | undefined;

beforeAll(async () => {
  buildDir = await builtApp();
  t = await createTestDb("sqlite");
  prefix = uniquePrefix("web-process");
  // Started here, not in the first test: on a busy machine a cold start can take longer than a
  // test's own time, and it is setup, not the behaviour under test.
  web = await start();
}, 300_000);
afterAll(async () => {
  if (web && (await Promise.race([web.exited.then(() => true), Promise.resolve(false)])) === false)
    web.signal("SIGKILL");
  await t?.drop();
  await deletePrefix(prefix);
});

const start = () =>
  startWebProcess(buildDir, {
    DATABASE_URL: t.url,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: prefix,
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    OPERATOR_PASSWORD: "operator-password-0123",
  });

/** A raw HTTP/1.1 connection: requests written by hand, so one can stop half-way through a body. */
function rawConnection(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (d) => (received += d.toString("latin1")));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("error", () => undefined);
  return {
    socket,
    closed,
    write: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())),
    /** Waits for the n-th complete response head and returns its status line and headers. */
    response: (n = 1) =>
      eventually(
        async () => received.split("HTTP/1.1 ").slice(1),
        (heads) => heads.length >= n && heads[n - 1]!.includes("\r\n\r\n"),
        10_000,
      ).then((heads) => heads[n - 1]!),
  };
}

function webhookHead(body: string, webhookId: string) {
  return [
    "POST /webhooks/products/update HTTP/1.1",
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "X-Shopify-Topic: products/update",
    "X-Shopify-Shop-Domain: drain.myshopify.com",
    `X-Shopify-Hmac-Sha256: ${signBody(body, process.env.SHOPIFY_API_SECRET!)}`,
    `X-Shopify-Webhook-Id: ${webhookId}`,
    "X-Shopify-Event-Id: ev-drain-1",
    "X-Shopify-Api-Version: 2026-10",
    `X-Shopify-Triggered-At: ${new Date().toISOString()}`,
    "",
    "",
  ].join("\r\n");
}

describe("the web process (npm start)", () => {
  it("GIVEN it runs THEN /health and /ready answer 200 with the database and Redis up, and /favicon.ico an empty 204", async () => {
    web ??= await start();
    const health = await fetch(`${web.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true, db: "up", redis: "up" });
    const ready = await fetch(`${web.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, draining: false });
    const icon = await fetch(`${web.url}/favicon.ico`);
    expect(icon.status).toBe(204);
    expect(web.tail()).not.toMatch(/favicon|No route matches/);
  });

  it("GIVEN an operator password THEN the queue dashboard is mounted, behind basic authentication", async () => {
    web ??= await start();
    expect((await fetch(`${web.url}/ops/queues`)).status).toBe(401);
    const auth = { Authorization: `Basic ${Buffer.from("operator:operator-password-0123").toString("base64")}` };
    expect((await fetch(`${web.url}/ops/queues/api/queues`, { headers: auth })).status).toBe(200);
  });

  it("GIVEN a browser that accepts gzip THEN the admin's stylesheets come compressed, and an empty answer as it is", async () => {
    if (!web) throw new Error("web process not started");
    const css = readdirSync(join(buildDir, "client", "assets")).filter((f) => f.endsWith(".css"));
    const largest = css
      .map((f) => ({ f, size: statSync(join(buildDir, "client", "assets", f)).size }))
      .sort((a, b) => b.size - a.size)[0]!;
    const res = await fetch(`${web.url}/assets/${largest.f}`, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect((await res.text()).length).toBe(readFileSync(join(buildDir, "client", "assets", largest.f), "utf8").length);
    const icon = await fetch(`${web.url}/favicon.ico`, { headers: { "accept-encoding": "gzip" } });
    expect(icon.status).toBe(204);
    expect(icon.headers.get("content-encoding")).toBeNull();
  });

  it("GIVEN webhook deliveries THEN each webhook route answers them before Remix, and other paths still reach Remix", async () => {
    web ??= await start();
    // Every `webhooks.*` route file of the app is on the fast path.
    const routeFiles = readdirSync(join(process.cwd(), "app", "routes")).filter((f) => f.startsWith("webhooks."));
    expect(web.lines.find((l) => l.includes("web server listening"))).toContain(`"webhookRoutes":${routeFiles.length}`);

    const body = JSON.stringify({ id: 4243, title: "Fast tee", updated_at: new Date().toISOString() });
    const post = (path: string, headers: Record<string, string>, payload: string = body) =>
      fetch(`${web!.url}${path}`, { method: "POST", headers, body: payload });
    const signedHeaders = {
      "content-type": "application/json",
      "x-shopify-topic": "products/update",
      "x-shopify-shop-domain": "fast.myshopify.com",
      "x-shopify-hmac-sha256": signBody(body, process.env.SHOPIFY_API_SECRET!),
      "x-shopify-webhook-id": "wh-fast-1",
      "x-shopify-api-version": "2026-10",
    };
    expect((await post("/webhooks/products/update", signedHeaders)).status).toBe(200);
    expect((await post("/webhooks/products/update", { ...signedHeaders, "x-shopify-hmac-sha256": "x" })).status).toBe(
      401,
    );
    // A chunked body (no declared length) past the limit is refused without being read whole.
    const big = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 17; i++) controller.enqueue(new Uint8Array(1024 * 1024));
        controller.close();
      },
    });
    const refused = await fetch(`${web.url}/webhooks/products/update`, {
      method: "POST",
      headers: signedHeaders,
      body: big,
      duplex: "half",
    } as RequestInit);
    expect(refused.status).toBe(413);
    // No route for it: Remix answers, as before.
    expect((await post("/webhooks/not/a-topic", signedHeaders)).status).toBe(404);
    const queue = new Queue(QueueName.webhooks, { connection: { url: redisUrl() }, prefix });
    try {
      expect((await queue.getJob("wh-wh-fast-1"))?.data).toMatchObject({ shop: "fast.myshopify.com" });
    } finally {
      await queue.close();
    }
  });

  it("GIVEN a webhook half received WHEN SIGTERM THEN readiness turns false, the webhook is answered 200 and stored, and the process exits 0 within SHUTDOWN_TIMEOUT_MS", async () => {
    web ??= await start();
    const body = JSON.stringify({ id: 4242, title: "Drained tee", updated_at: new Date().toISOString() });
    const conn = rawConnection(web.port);
    // A first request on the connection, so the server surely holds it before the second begins.
    await conn.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(await conn.response(1)).toMatch(/^200 /);
    await conn.write(webhookHead(body, "wh-drain-1") + body.slice(0, 20));

    const signalled = Date.now();
    web.signal("SIGTERM");
    // Still listening for SHUTDOWN_DELAY_MS, and saying it is not ready.
    const ready = await eventually(
      () => fetch(`${web!.url}/ready`).then(async (r) => ({ status: r.status, body: await r.json() })),
      (r) => r.status !== 200,
      5000,
    );
    expect(ready).toEqual({ status: 503, body: { ready: false, draining: true } });

    // The rest of the body after the listener closed: the request in flight is still answered.
    await eventually(
      () =>
        fetch(`${web!.url}/health`).then(
          () => "open",
          () => "refused",
        ),
      (s) => s === "refused",
      5000,
    );
    await conn.write(body.slice(20));
    const answer = await conn.response(2);
    expect(answer).toMatch(/^200 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    const queue = new Queue(QueueName.webhooks, { connection: { url: redisUrl() }, prefix });
    try {
      expect((await queue.getJob("wh-wh-drain-1"))?.data).toMatchObject({
        topic: "products/update",
        shop: "drain.myshopify.com",
      });
    } finally {
      await queue.close();
    }

    // Bounded here too: a process that never exits fails the test instead of hanging it.
    const exit = await Promise.race([
      web.exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no exit:\n${web!.tail()}`)), SHUTDOWN_TIMEOUT_MS + 5000),
      ),
    ]);
    expect(exit, web.tail()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    await conn.closed;
    expect(web.tail()).toMatch(/web server stopped/);
  });
});
