import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { redisUrl } from "../../test/helpers/redis";
import { seedOfflineSession } from "../../test/helpers/offline-session";
import {
  OrderBook,
  ordersModule,
  startSimulatedStore,
  type SimOrder,
  type SimulatedStore,
} from "../../sandbox/simulated-store";
import { startSync } from "../../app/.server/sync/start-sync";
import { parseProgress, type SyncKind } from "../../app/.server/sync/sync-runs.repository";
import { requestBackSync } from "../../app/.server/backsync/schedule";
import { syncOverview } from "../../app/.server/admin/sync-overview";
import { metrics } from "../../app/.server/metrics/metrics";
import { runCli } from "../../app/.server/cli/main";
import type { CliIo } from "../../app/.server/cli/command";
import type { ReviewsClient } from "../../app/.server/reviews";

// When the service forgets what the app sent, on real parts: the emulator (its `forget` control
// drops products and orders, as a reset account or lost data would), a simulated store with
// products and orders (bulk operations over HTTP), real Redis and the real workers. What is proved
// is counted on the wire: the catalog batches and order posts the emulator received.

const SHOP = "resend.myshopify.com";
const DAY_MS = 86_400_000;
const book = new OrderBook({ seed: 23, count: 16, productCount: 6 });
let s: Stack;
let store: SimulatedStore;
let shopId: string;
let reviews: ReviewsClient;

type Req = ReturnType<Stack["emu"]["control"]["requests"]>[number];
const requests = (since: number) => s.emu.control.requests(since);
const batchesWith = (since: number, sku: string) =>
  requests(since).filter(
    (r) =>
      r.method === "POST" &&
      r.path === "/api/acme/products/batch" &&
      ((r.body as { products?: { sku: string }[] }).products ?? []).some((p) => p.sku === sku),
  );
const orderPosts = (since: number, id: string, customer = "acme") =>
  requests(since).filter(
    (r: Req) =>
      r.method === "POST" && r.path === `/api/${customer}/orders` && (r.body as { orderId?: string }).orderId === id,
  );
const orderPuts = (since: number, id: string) =>
  requests(since).filter((r) => r.method === "PUT" && r.path === `/api/acme/orders/${id}`);
const knows = (customer: string) => s.emu.control.state(customer);
const resendCount = async (kind: string, outcome: string) =>
  (await metrics().resends.get()).values.find((v) => v.labels.kind === kind && v.labels.outcome === outcome)?.value ??
  0;

async function run(kind: SyncKind, since?: Date) {
  const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shopId, kind, since);
  const done = await eventually(
    () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
    (r) => ["completed", "failed", "cancelled"].includes(r.status),
    90_000,
  );
  expect(done.error).toBeNull();
  return parseProgress(done.progress);
}

async function backSync() {
  await requestBackSync({ queues: s.web.queues, config: s.config }, shopId);
  await s.idle(60_000);
}

beforeAll(async () => {
  store = await startSimulatedStore({
    shop: SHOP,
    products: 6,
    seed: 23,
    bulkDurationMs: 50,
    modules: [ordersModule(book)],
  });
  s = await startStack("resend", {
    SHOPIFY_ORIGIN: store.originTemplate,
    CATALOG_FLUSH_WINDOW_MS: "100",
    CATALOG_FLUSH_MAX_WAIT_MS: "500",
    ORDER_TRACKING_GRACE_MS: "0",
    JOB_BACKOFF_MS: "20",
  });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
  shopId = (await s.web.shops.get(SHOP)).id;
  reviews = await s.worker.reviewsFor(SHOP);
  await run("catalog");
  await run("orders", new Date(Date.now() - 60 * DAY_MS));
  // The feed's first read only remembers where the list stands: later moderations are changes.
  await backSync();
}, 180_000);

afterAll(async () => {
  await s?.close();
  await store?.close();
});

describe("when the service forgets what the app sent", () => {
  let sku = "";
  const pendingReviews: string[] = [];

  it("GIVEN a product the service no longer knows THEN a moderated review of it (product null) makes the app send it again, once", async () => {
    const row = await s.t.db.productMirror.findFirstOrThrow({
      where: { shopId, status: "synced" },
      orderBy: { productId: "asc" },
    });
    sku = row.sku;
    for (const n of [1, 2]) {
      const r = await reviews.storefront.submitReview(sku, {
        userId: `u-${n}`,
        email: `buyer${n}@example.com`,
        rating: 5,
        text: `Review ${n}`,
      });
      pendingReviews.push(r._id);
    }
    expect(s.emu.control.forget("acme", { skus: [sku] }).skus).toEqual([sku]);
    const since = s.emu.control.lastRequestSeq();
    const before = await resendCount("product", "resent");

    s.emu.control.publishReview(pendingReviews[0]!);
    await backSync();

    await eventually(
      async () => knows("acme").products.find((p) => p.sku === sku),
      (p) => Boolean(p),
      60_000,
    );
    expect(batchesWith(since, sku)).toHaveLength(1);
    expect(await resendCount("product", "resent")).toBe(before + 1);
    expect(
      await s.t.db.productMirror.findUniqueOrThrow({
        where: { shopId_productId: { shopId, productId: row.productId } },
      }),
    ).toMatchObject({ status: "synced", payloadHash: expect.any(String) });
  }, 120_000);

  it("GIVEN the service denies the same product again inside the window THEN it is reported, not sent again", async () => {
    s.emu.control.forget("acme", { skus: [sku] });
    const since = s.emu.control.lastRequestSeq();
    const before = await resendCount("product", "denied");

    s.emu.control.publishReview(pendingReviews[1]!);
    await backSync();
    // A third run with nothing new: still nothing sent.
    await backSync();

    expect(batchesWith(since, sku)).toEqual([]);
    expect(knows("acme").products.find((p) => p.sku === sku)).toBeUndefined();
    expect(await resendCount("product", "denied")).toBe(before + 1);
    const overview = await syncOverview(s.web, SHOP);
    expect(overview.resend).toMatchObject({ reason: "unknown", products: 1, denied: 1, windowHours: 24 });
  }, 120_000);

  let order: SimOrder;

  it("GIVEN an order the service no longer knows THEN its status update answered 404 is followed by the whole order, sent once", async () => {
    order = book
      .all()
      .find(
        (o) =>
          !o.test &&
          !o.cancelledAt &&
          o.sourceName === "web" &&
          o.fulfillments.length === 0 &&
          o.lines.some((l) => !l.giftCard) &&
          knows("acme").orders.some((x) => x.orderId === String(o.id)),
      )!;
    expect(order).toBeDefined();
    const id = String(order.id);
    expect(s.emu.control.forget("acme", { orderIds: [id] }).orderIds).toEqual([id]);
    const since = s.emu.control.lastRequestSeq();
    const before = await resendCount("order", "resent");

    const shipment = book.fulfil(order.id);
    await s.deliver(
      "fulfillments/create",
      SHOP,
      shipment.webhooks.find((w) => w.topic === "fulfillments/create")!.payload,
    );

    const held = await eventually(
      async () => knows("acme").orders.find((o) => o.orderId === id),
      (o) => o?.status === "shipped",
      90_000,
    );
    expect(held).toMatchObject({ orderId: id, status: "shipped" });
    await s.idle(60_000);
    expect(orderPuts(since, id).map((r) => r.status)).toEqual([404]);
    expect(orderPosts(since, id).map((r) => r.status)).toEqual([200]);
    expect(await resendCount("order", "resent")).toBe(before + 1);
    const state = await s.t.db.orderState.findUniqueOrThrow({ where: { shopId_orderId: { shopId, orderId: id } } });
    expect(state).toMatchObject({ status: "shipped", error: null });
  }, 150_000);

  it("GIVEN the service denies the same order again inside the window THEN the update gives up with its reason and nothing loops", async () => {
    const id = String(order.id);
    s.emu.control.forget("acme", { orderIds: [id] });
    const since = s.emu.control.lastRequestSeq();
    const delivered = book.deliver(order.id);
    const event =
      delivered.webhooks.find((w) => w.topic === "fulfillment_events/create") ??
      delivered.webhooks.find((w) => w.topic === "fulfillments/update")!;
    await s.deliver(event.topic, SHOP, event.payload);

    const state = await eventually(
      () => s.t.db.orderState.findUniqueOrThrow({ where: { shopId_orderId: { shopId, orderId: id } } }),
      (o) => o.error !== null,
      60_000,
    );
    expect(state.error).toContain("404");
    await s.idle(60_000);
    expect(orderPuts(since, id).map((r) => r.status)).toEqual([404]);
    expect(orderPosts(since, id)).toEqual([]);
    expect((await syncOverview(s.web, SHOP)).resend).toMatchObject({
      reason: "unknown",
      products: 1,
      orders: 1,
      denied: 2,
    });
  }, 120_000);

  it("GIVEN `connect` to another account THEN everything sent before goes to it: the catalog and the orders, with the Sync page saying so", async () => {
    s.emu.control.addAccount({
      customer: "globex",
      clientId: "globex-client",
      clientSecret: "globex-secret-0123456789",
    });
    const mirrored = await s.t.db.productMirror.count({ where: { shopId, status: "synced" } });
    const sent = await s.t.db.orderState.findMany({
      where: { shopId, sentAt: { not: null } },
      select: { orderId: true },
    });
    const io = cliIo();
    const code = await runCli(
      [
        "connect",
        "--shop",
        SHOP,
        "--customer",
        "globex",
        "--client-id",
        "globex-client",
        "--client-secret",
        "globex-secret-0123456789",
      ],
      io,
    );
    expect(code, io.stderr.join("\n")).toBe(0);
    expect(io.stdout.join("\n")).toMatch(/Another account than before/);

    await eventually(
      () => Promise.resolve(knows("globex")),
      (st) => st.products.length >= mirrored && sent.every((o) => st.orders.some((x) => x.orderId === o.orderId)),
      120_000,
    );
    const overview = await syncOverview(s.web, SHOP);
    expect(overview.resend).toMatchObject({ reason: "account", products: mirrored, denied: 0 });
    expect(overview.resend!.orders).toBeGreaterThanOrEqual(sent.length);
  }, 180_000);
});

function cliIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const env = {
    ...process.env,
    DATABASE_URL: s.t.url,
    REDIS_PREFIX: s.prefix,
    REDIS_URL: redisUrl(),
    ENCRYPTION_KEY: s.config.ENCRYPTION_KEY,
    REVIEWS_API_URL: s.config.REVIEWS_API_URL,
    REVIEWS_AUTH_URL: s.config.REVIEWS_AUTH_URL,
    REVIEWS_RATE_URL: s.config.REVIEWS_RATE_URL,
  };
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), env };
}
