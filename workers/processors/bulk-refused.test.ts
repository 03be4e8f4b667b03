import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { OrderBook, ordersModule, startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { startSync } from "../../app/.server/sync/start-sync";
import { parseProgress, type SyncKind } from "../../app/.server/sync/sync-runs.repository";
import { QueueName, jobIdPart } from "../../app/.server/queues/names";
import { defaultProcessors, startWorkers } from "../start";
import { productsPageSize } from "../../app/.server/shopify/paged-reads";
import { redisUrl } from "../../test/helpers/redis";
import { runCli } from "../../app/.server/cli/main";
import type { CliIo } from "../../app/.server/cli/command";
import { seedOfflineSession } from "../../test/helpers/offline-session";

// Bulk operations refused by Shopify (not enabled for the app, disabled after 31 days unused, no IP
// allowlist): the full catalog sync and the orders backfill read the same data with paged queries.
// "The same result" is proved on the wire: what the paged path sent, the bulk path finds unchanged
// (every payload identical), and the other way round.

let s: Stack;
let store: SimulatedStore;
let shopId: string;
const SHOP = "bulk-refused.myshopify.com";
const N = 650;
const book = new OrderBook({ seed: 5, count: 30, productCount: 40 });

beforeAll(async () => {
  // A Plus plan's bucket ten times over: the paged read costs ~16 points a product (test/bench/bench-report.md),
  // which a Standard plan's 100 points a second would stretch to minutes here.
  store = await startSimulatedStore({
    shop: SHOP,
    products: N,
    seed: 5,
    bulkDurationMs: 50,
    modules: [ordersModule(book)],
    throttle: { maximumAvailable: 20_000, restoreRate: 10_000 },
  });
  // A product past what one page carries of its variants (25) and collections (10): read on.
  const template = store.product(store.products()[0]!.id)!;
  store.addProduct({
    title: "Many sizes",
    variants: Array.from({ length: 60 }, (_, i) => ({
      ...template.variants[0]!,
      id: `gid://shopify/ProductVariant/${990_000 + i}`,
      sku: `MANY-${i}`,
      title: `Size ${i}`,
    })),
    collections: Array.from({ length: 14 }, (_, i) => ({
      id: `gid://shopify/Collection/${880_000 + i}`,
      title: `Collection ${i}`,
      handle: `collection-${i}`,
    })),
  });
  s = await startStack("bulk-refused", { SHOPIFY_ORIGIN: store.originTemplate });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
  shopId = (await s.web.shops.get(SHOP)).id;
}, 60_000);
afterAll(async () => {
  await s.close();
  await store.close();
});

const batchRequests = (since: number) =>
  s.emu.control.requests(since).filter((r) => r.path === "/api/acme/products/batch");
const skusOf = (r: { body: unknown }) => (r.body as { products: { sku: string }[] }).products.map((p) => p.sku);
const orderPosts = (since: number) =>
  s.emu.control.requests(since).filter((r) => r.method === "POST" && r.path === "/api/acme/orders");
const storeCalls = (name: string, from: number) => store.requests.slice(from).filter((r) => r.operationName === name);

async function waitForRun(runId: string, timeoutMs = 90_000) {
  const done = await eventually(
    () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: runId } }),
    (r) => ["completed", "failed", "cancelled"].includes(r.status),
    timeoutMs,
  );
  expect(done.error).toBeNull();
  expect(done.status).toBe("completed");
  return { run: done, progress: parseProgress(done.progress) };
}

async function runSync(kind: SyncKind) {
  await s.idle();
  const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shopId, kind);
  return waitForRun(run.id);
}

function cliIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const env = { ...process.env, DATABASE_URL: s.t.url, REDIS_PREFIX: s.prefix, REDIS_URL: redisUrl() };
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), env };
}

describe("bulk operations refused", () => {
  it("GIVEN bulkOperationRunQuery answers ACCESS_DENIED THEN the catalog is read in pages and every product is sent once; the run says which path and why", async () => {
    store.disableBulk("error");
    const since = s.emu.control.lastRequestSeq();
    const from = store.requests.length;
    const { run, progress } = await runSync("catalog");
    const total = N + 1;
    expect(run.readPath).toBe("paged");
    expect(run.readPathReason).toMatch(/bulk operations refused by Shopify: .*ACCESS_DENIED|Access denied/);
    expect(progress).toMatchObject({ read: total, sent: total, created: total, failed: 0 });
    const accepted = batchRequests(since)
      .filter((r) => r.status === 200)
      .flatMap(skusOf);
    expect(accepted).toHaveLength(total);
    expect(new Set(accepted).size).toBe(total);
    // Pages sized to Shopify's 1,000-point cap; the long product read on past its first page.
    const pages = storeCalls("ProductsPage", from);
    expect(pages).toHaveLength(Math.ceil(total / productsPageSize({ collections: true, metafieldKeys: 0 })));
    expect(pages.every((r) => r.status === 200 && !r.throttled)).toBe(true);
    expect(storeCalls("ProductVariantsPage", from)).toHaveLength(1);
    expect(storeCalls("ProductCollectionsPage", from)).toHaveLength(1);
    const many = s.emu.control.state("acme").products.find((p) => p.name === "Many sizes");
    expect(many).toBeDefined();
    expect(storeCalls("BulkOperationRunQuery", from)).toHaveLength(1);
  }, 120_000);

  it("GIVEN bulk operations enabled again THEN the next run is a bulk one and finds every product unchanged: the paged path sent what the bulk path sends", async () => {
    store.enableBulk();
    const since = s.emu.control.lastRequestSeq();
    const { run, progress } = await runSync("catalog");
    expect(run.readPath).toBe("bulk");
    expect(run.readPathReason).toBeNull();
    expect(progress).toMatchObject({ read: N + 1, sent: 0, unchanged: N + 1 });
    expect(batchRequests(since)).toHaveLength(0);
  }, 120_000);

  it("GIVEN the bulk operation itself fails with ACCESS_DENIED THEN the run switches to pages and finds nothing to send", async () => {
    store.failNextBulkOperation("ACCESS_DENIED");
    const since = s.emu.control.lastRequestSeq();
    const { run, progress } = await runSync("catalog");
    expect(run.readPath).toBe("paged");
    expect(run.readPathReason).toBe("bulk operation failed: ACCESS_DENIED");
    expect(progress).toMatchObject({ read: N + 1, sent: 0, unchanged: N + 1 });
    expect(batchRequests(since)).toHaveLength(0);
  }, 120_000);

  it("GIVEN `sync catalog` while bulk is refused THEN it says the run read page by page and why; with bulk back, that it used a bulk operation", async () => {
    store.disableBulk("error");
    await s.idle();
    const paged = cliIo();
    expect(await runCli(["sync", "catalog", "--shop", SHOP], paged)).toBe(0);
    const text = paged.stdout.join("\n");
    expect(text).toContain(
      "Shopify refused bulk operations (bulk operations refused by Shopify: BulkOperationRunQuery: Access denied",
    );
    expect(text).toContain("Read page by page (paged GraphQL queries)");
    store.enableBulk();
    await s.idle();
    const bulk = cliIo();
    expect(await runCli(["sync", "catalog", "--shop", SHOP], bulk)).toBe(0);
    expect(bulk.stdout.join("\n")).toContain("Read with a bulk operation.");
  }, 120_000);

  it("GIVEN the orders backfill refused bulk (a userError) THEN it reads orders in pages; a bulk reconciliation afterwards sends nothing", async () => {
    store.disableBulk("userError");
    const since = s.emu.control.lastRequestSeq();
    const paged = await runSync("orders");
    expect(paged.run.readPath).toBe("paged");
    expect(paged.progress.read).toBeGreaterThan(10);
    expect(paged.progress.failed).toBe(0);
    const sent = orderPosts(since).filter((r) => r.status === 200).length;
    expect(sent).toBe(paged.progress.sent);
    expect(sent).toBeGreaterThan(10);

    store.enableBulk();
    const again = s.emu.control.lastRequestSeq();
    const bulk = await runSync("orders");
    expect(bulk.run.readPath).toBe("bulk");
    expect(bulk.progress).toMatchObject({ read: paged.progress.read, sent: 0, failed: 0 });
    expect(orderPosts(again)).toHaveLength(0);
  }, 120_000);

  it("GIVEN the worker stops in the middle of a paged run THEN a new worker resumes from the saved page cursor and every product is accepted once", async () => {
    for (const p of store.products()) store.updateProduct(p.id, { title: `${p.title} (restart)` });
    store.disableBulk("error");
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    // Slow batches; once the first is accepted, every batch fails: the read job waits for a retry.
    s.emu.control.setFaults({ latencyMs: 200, paths: "/products/batch" });
    const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shopId, "catalog");
    await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.resumeAt >= 200,
      60_000,
    );
    s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "/products/batch" });
    const readJob = await eventually(
      () => s.web.queues.get(QueueName.sync).getJob(`catalog-read-${jobIdPart(run.id)}`),
      (j) => !!j,
      10_000,
    );
    await eventually(
      () => readJob!.getState(),
      (state) => state === "delayed" || state === "failed",
      60_000,
    );
    await s.workers.close();

    const saved = await s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(saved.status).toBe("reading");
    expect(saved.readPath).toBe("paged");
    const cursor = JSON.parse(saved.pageCursor!) as { after: string | null; at: number };
    expect(cursor.at).toBeGreaterThan(0);
    expect(cursor.at).toBeLessThanOrEqual(saved.resumeAt);

    s.emu.control.clearFaults();
    const from = store.requests.length;
    s.workers = startWorkers(s.worker, defaultProcessors());
    const { progress } = await waitForRun(run.id);
    // The new worker's first page starts at the saved cursor, not at the first product.
    expect(storeCalls("ProductsPage", from)[0]?.variables.after).toBe(cursor.after);
    const accepted = batchRequests(since)
      .filter((r) => r.status === 200)
      .flatMap(skusOf);
    expect(accepted).toHaveLength(N + 1);
    expect(new Set(accepted).size).toBe(N + 1);
    expect(progress).toMatchObject({ read: N + 1, sent: N + 1, updated: N + 1 });
  }, 150_000);
});
