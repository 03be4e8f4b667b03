import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { format } from "node:util";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../helpers/stack";
import { eventually } from "../helpers/contexts";
import { redisUrl } from "../helpers/redis";
import { adminRequest } from "../helpers/session-token";
import {
  OrderBook,
  ordersModule,
  productDeletePayload,
  productWebhookPayload,
  startSimulatedStore,
  type SimulatedStore,
} from "../../sandbox/simulated-store";
import { runCli } from "../../app/.server/cli/main";
import type { CliIo } from "../../app/.server/cli/command";
import { ADMIN_SESSION_LIFETIME_MS, seedOfflineSession } from "../helpers/offline-session";
import type { OfflineSessionFields } from "../../sandbox/simulated-store/tokens";

// A planted client secret of the reviews service and a planted Shopify access token go through a
// whole run: connect with the operator CLI, full catalog sync and orders backfill on a simulated
// store, product and order webhooks, the service refusing the credentials (auth errors logged and
// stored as failed jobs), Shopify refusing the token, the CLI status (in process and as a child
// process) and the admin routes. Then every place a secret could end up is searched: every log
// line, every key and value under the test's Redis prefix (strings, hashes, lists, sets, sorted
// sets, streams: job data, failed reasons, stack traces), every column of every database row, and
// every HTTP response. The client secret may exist only encrypted; the Shopify access token only where
// Shopify's session storage keeps it (Session.accessToken), its refresh token only sealed.

const SHOP = "planted-secret.myshopify.com";
const RAND = randomBytes(8).toString("hex");
const SECRET = `PLANTED-SECRET-${RAND}`;
const SHOPIFY_TOKEN = `shpat_PLANTED${randomBytes(8).toString("hex")}`;
/** The expiring pair the install stored (the non-expiring SHOPIFY_TOKEN is the store's, never sent). */
let installed: OfflineSessionFields;
const CUSTOMER = "planted";
const CLIENT_ID = "planted-client";

/** Every form a careless line could write a secret in. */
function forms(secret: string): string[] {
  return [
    secret,
    Buffer.from(secret).toString("base64"),
    Buffer.from(secret).toString("base64url"),
    Buffer.from(secret).toString("hex"),
    secret.split("-").pop()!,
  ];
}

function hits(corpus: string, secret: string): string[] {
  return forms(secret).flatMap((needle) => {
    const out: string[] = [];
    for (let i = corpus.indexOf(needle); i >= 0; i = corpus.indexOf(needle, i + 1))
      out.push(corpus.slice(Math.max(0, i - 160), i + needle.length + 40));
    return out;
  });
}

let s: Stack;
let store: SimulatedStore;
const book = new OrderBook({ seed: 5, count: 8, productCount: 20 });
const cliOutput: string[] = [];
const responses: string[] = [];
// Shopify's libraries (and anything else) log through the console: captured too, and passed on.
const consoleLines: string[] = [];
const consoleMethods = ["log", "info", "warn", "error", "debug"] as const;
const originalConsole = Object.fromEntries(consoleMethods.map((m) => [m, console[m]]));

function cliEnv(): Record<string, string | undefined> {
  return {
    ...process.env,
    DATABASE_URL: s.t.url,
    REDIS_PREFIX: s.prefix,
    REDIS_URL: redisUrl(),
    REVIEWS_API_URL: s.config.REVIEWS_API_URL,
    REVIEWS_AUTH_URL: s.config.REVIEWS_AUTH_URL,
    REVIEWS_RATE_URL: s.config.REVIEWS_RATE_URL,
    SHOPIFY_ORIGIN: store.originTemplate,
    LOG_LEVEL: "trace",
  };
}

async function cli(argv: string[]): Promise<number> {
  const io: CliIo = {
    out: (l) => cliOutput.push(l),
    err: (l) => cliOutput.push(l),
    env: cliEnv(),
    progress: (l) => cliOutput.push(l),
  };
  return runCli(argv, io);
}

/** The CLI as an operator runs it: its own process, stdout and stderr captured whole. */
function cliProcess(argv: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "app/.server/cli/main.ts", ...argv], {
      env: cliEnv() as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, output }));
  });
}

async function deliver(topic: string, payload: unknown, webhookId = `sec-${randomBytes(6).toString("hex")}`) {
  const res = await s.deliver(topic, SHOP, payload, { webhookId });
  responses.push(`${topic} ${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
  expect(res.status).toBe(200);
  return webhookId;
}

const delivery = (id: string) => s.t.db.webhookDelivery.findUnique({ where: { id } });
const done = (id: string) =>
  eventually(
    () => delivery(id),
    (d) => d?.status === "done",
    30_000,
  );

/** Everything under the test's prefix, whatever the type, keys included. */
async function redisDump(): Promise<{ text: string; keys: number; types: Set<string> }> {
  const redis = new Redis(redisUrl(), { maxRetriesPerRequest: 3 });
  const parts: string[] = [];
  const types = new Set<string>();
  let keys = 0;
  try {
    let cursor = "0";
    do {
      const [next, batch] = await redis.scan(cursor, "MATCH", `${s.prefix}*`, "COUNT", 1000);
      cursor = next;
      for (const key of batch) {
        keys++;
        const type = await redis.type(key);
        types.add(type);
        let value: unknown;
        if (type === "string") value = await redis.getBuffer(key).then((b) => b?.toString("latin1"));
        else if (type === "hash") value = await redis.hgetall(key);
        else if (type === "list") value = await redis.lrange(key, 0, -1);
        else if (type === "set") value = await redis.smembers(key);
        else if (type === "zset") value = await redis.zrange(key, "0", "-1", "WITHSCORES");
        else if (type === "stream") value = await redis.xrange(key, "-", "+");
        parts.push(`${key} ${type} ${JSON.stringify(value)}`);
      }
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return { text: parts.join("\n"), keys, types };
}

/** Every column of every row of every table, as `table.column=value`. */
function databaseDump(): { rows: { table: string; column: string; value: string }[]; tables: string[] } {
  const db = new Database(s.t.url.replace(/^file:/, ""), { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (t) => t.name,
    );
    const rows = tables.flatMap((table) =>
      (db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]).flatMap((row) =>
        Object.entries(row).map(([column, v]) => ({
          table,
          column,
          value: Buffer.isBuffer(v) ? v.toString("latin1") : String(v),
        })),
      ),
    );
    return { rows, tables };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  for (const m of consoleMethods) {
    console[m] = (...args: unknown[]) => {
      consoleLines.push(format(...args));
      originalConsole[m]!(...args);
    };
  }
  store = await startSimulatedStore({
    shop: SHOP,
    products: 20,
    seed: 5,
    bulkDurationMs: 50,
    accessToken: SHOPIFY_TOKEN,
    modules: [ordersModule(book)],
    tokenLifetimeMs: ADMIN_SESSION_LIFETIME_MS,
  });
  s = await startStack("security", { SHOPIFY_ORIGIN: store.originTemplate, JOB_BACKOFF_MS: "100", LOG_LEVEL: "trace" });
  s.emu.control.addAccount({ customer: CUSTOMER, clientId: CLIENT_ID, clientSecret: SECRET });
  // What the app's install leaves behind: the offline session, with Shopify's expiring pair.
  installed = await seedOfflineSession(s.t.db, store, {
    shop: SHOP,
    scope: s.config.SCOPES,
    lifetimeMs: ADMIN_SESSION_LIFETIME_MS,
  });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await store?.close();
  Object.assign(console, originalConsole);
});

describe("a planted secret never leaves where it belongs", () => {
  it("GIVEN a whole run with failures THEN no log line, Redis value, database row or HTTP response holds the client secret or the Shopify token", async () => {
    // Connect through the operator CLI: first catalog sync and orders backfill are queued by it.
    expect(
      await cli([
        "connect",
        "--shop",
        SHOP,
        "--customer",
        CUSTOMER,
        "--client-id",
        CLIENT_ID,
        "--client-secret",
        SECRET,
      ]),
    ).toBe(0);
    const shop = await s.web.shops.get(SHOP);
    const runs = await eventually(
      () => s.t.db.syncRun.findMany({ where: { shopId: shop.id } }),
      (r) => r.length === 2 && r.every((run) => run.status === "completed"),
      90_000,
    );
    expect(runs.map((r) => r.kind).sort()).toEqual(["catalog", "orders"]);
    expect(s.emu.control.state(CUSTOMER).products.length).toBe(20);

    // Live webhooks: products and orders, a compliance request.
    const [first, second] = store.products();
    const ids = [
      await deliver("products/update", productWebhookPayload(store.updateProduct(first!.id, { title: "Planted tee" }))),
      await deliver("products/create", productWebhookPayload(store.addProduct({ title: "Planted mug" }))),
      await deliver("products/delete", productDeletePayload(second!)),
    ];
    const placed = book.place({ lines: [{ productIndex: 0 }], financialStatus: "PENDING" });
    for (const w of placed.webhooks) ids.push(await deliver(w.topic, w.payload));
    ids.push(
      await deliver("customers/data_request", {
        shop_id: 1,
        shop_domain: SHOP,
        customer: { id: 1, email: "buyer@example.com" },
        orders_requested: [placed.order.id],
        data_request: { id: 1 },
      }),
    );
    for (const id of ids) await done(id);
    await eventually(
      async () => s.emu.control.state(CUSTOMER).orders.some((o) => o.orderId === String(placed.order.id)),
      Boolean,
    );

    // The service refuses the credentials: its tokens are revoked and the secret no longer matches.
    s.emu.control.addAccount({ customer: CUSTOMER, clientId: CLIENT_ID, clientSecret: `rotated-${RAND.slice(0, 4)}` });
    s.emu.control.expireTokens();
    const paid = book.pay(placed.order.id).webhooks.find((w) => w.topic === "orders/updated")!;
    const refused = await deliver(paid.topic, paid.payload);
    await deliver(
      "products/update",
      productWebhookPayload(store.updateProduct(first!.id, { title: "Planted tee, refused" })),
    );
    const failed = await eventually(
      () => delivery(refused),
      (d) => !!d?.error,
      30_000,
    );
    expect(failed!.error).toMatch(/token request refused/i);
    await eventually(
      async () => s.worker.sink.text().match(/job failed/g)?.length ?? 0,
      (n) => n >= 3,
      30_000,
    );

    // Shopify refuses the access token while a product is re-read (no type, no category: collections needed).
    store.injectFailure({
      status: 401,
      body: JSON.stringify({ errors: "[API] Invalid API key or access token" }),
      count: 5,
    });
    const reread = await deliver(
      "products/create",
      productWebhookPayload(store.addProduct({ title: "Typeless", productType: "", category: null })),
    );
    await eventually(
      () => delivery(reread),
      (d) => d?.status === "done" || !!d?.error,
      30_000,
    );
    expect(s.worker.sink.text()).toMatch(/ProductById: HTTP 401.*product not re-read/);

    // The operator looks: status in process and as a process of its own, sync errors, compliance.
    expect(await cli(["status", "--shop", SHOP])).toBe(0);
    expect(await cli(["status", "--shop", SHOP, "--json"])).toBe(0);
    expect(await cli(["sync", "errors", "--shop", SHOP])).toBe(0);
    expect(await cli(["compliance", "--shop", SHOP])).toBe(0);
    const child = await cliProcess(["status", "--shop", SHOP]);
    expect(child.code, child.output).toBe(0);
    expect(child.output).toMatch(/Client secret:\s+PL••••/);
    cliOutput.push(child.output);

    // The admin routes as the embedded admin calls them (session token of the shop).
    const { loader: indexLoader } = await import("../../app/routes/app._index");
    const page = await indexLoader({ request: adminRequest(SHOP, "/app"), params: {}, context: {} });
    expect(page).toMatchObject({ domain: SHOP, connected: true, clientSecret: expect.stringMatching(/^PL••••/) });
    responses.push(JSON.stringify(page));
    const { loader: healthLoader } = await import("../../app/routes/health");
    const health = await healthLoader();
    responses.push(`${health.status} ${await health.text()}`);

    // ---- the search ----
    const logs = [s.web.sink.text(), s.worker.sink.text(), cliOutput.join("\n"), consoleLines.join("\n")].join("\n");
    const redis = await redisDump();
    const { rows, tables } = databaseDump();
    const http = responses.join("\n");

    // The corpora are the real thing: the failures above left their traces in them.
    expect(logs.split("\n").length).toBeGreaterThan(100);
    expect(consoleLines.join("\n")).toContain("Authenticating admin request");
    expect(logs).toMatch(/refused/i);
    expect(redis.keys).toBeGreaterThan(20);
    expect([...redis.types]).toEqual(expect.arrayContaining(["hash", "zset", "stream", "string"]));
    expect(redis.text).toContain("stacktrace");
    expect(redis.text).toMatch(/token request refused/i);
    expect(tables).toEqual(
      expect.arrayContaining([
        "Shop",
        "Session",
        "WebhookDelivery",
        "ProductMirror",
        "OrderState",
        "SyncRun",
        "ComplianceRequest",
      ]),
    );
    expect(responses.length).toBeGreaterThan(8);

    // Soft: a leak is reported for every place it reached, not only the first.
    for (const secret of [SECRET, SHOPIFY_TOKEN, installed.accessToken, installed.refreshToken]) {
      expect.soft(hits(logs, secret), `log lines holding ${secret}`).toEqual([]);
      expect.soft(hits(redis.text, secret), `Redis values holding ${secret}`).toEqual([]);
      expect.soft(hits(http, secret), `HTTP responses holding ${secret}`).toEqual([]);
    }
    const dbHits = (secret: string) =>
      rows.filter((r) => hits(r.value, secret).length > 0).map((r) => `${r.table}.${r.column}`);
    expect.soft(dbHits(SECRET), "database columns holding the client secret in clear").toEqual([]);
    // Shopify's session storage keeps the access token (until a refresh replaces it), and nothing
    // else does; the refresh token only sealed.
    expect
      .soft(
        dbHits(installed.accessToken).filter((c) => c !== "Session.accessToken"),
        "database columns holding the Shopify token",
      )
      .toEqual([]);
    expect.soft(dbHits(installed.refreshToken), "database columns holding the refresh token in clear").toEqual([]);
    expect((await s.t.db.session.findFirstOrThrow({ where: { shop: SHOP } })).refreshToken).toMatch(/^v1:/);
    // Stored encrypted, not dropped: the worker gets it back from the ciphertext.
    const row = await s.t.db.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    expect(row.clientSecretEncrypted).toMatch(/^v1:/);
    expect((await s.web.shops.account(SHOP, { apiUrl: "", authUrl: "", rateUrl: "" })).clientSecret).toBe(SECRET);
  }, 180_000);
});
