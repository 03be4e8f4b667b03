import { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { redisUrl } from "../../test/helpers/redis";
import {
  OrderBook,
  ordersModule,
  startSimulatedStore,
  type SimOrder,
  type SimulatedStore,
} from "../../sandbox/simulated-store";
import { CUSTOMER_ID_BASE } from "../../sandbox/simulated-store/orders";
import { startSync } from "../../app/.server/sync/start-sync";
import { parseProgress, type SyncKind } from "../../app/.server/sync/sync-runs.repository";
import { runCli } from "../../app/.server/cli/main";
import type { CliIo } from "../../app/.server/cli/command";
import { QueueName, jobIdPart } from "../../app/.server/queues/names";
import { ordersRead } from "./orders-sync.processor";
import { seedOfflineSession } from "../../test/helpers/offline-session";

// Orders backfill and reconciliation on real parts: a simulated store with products and orders
// (bulk operations over HTTP), the emulator of the service, real Redis and the real workers.
// What is proved is counted on the wire: POST /api/acme/orders.

let s: Stack;
let store: SimulatedStore;
let shopId: string;
const SHOP = "orders-sync.myshopify.com";
const DAY_MS = 86_400_000;
const book = new OrderBook({ seed: 11, count: 40, productCount: 12 });

beforeAll(async () => {
  store = await startSimulatedStore({
    shop: SHOP,
    products: 12,
    seed: 11,
    bulkDurationMs: 50,
    modules: [ordersModule(book)],
  });
  s = await startStack("orders-sync", { SHOPIFY_ORIGIN: store.originTemplate });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
  shopId = (await s.web.shops.get(SHOP)).id;
});
afterAll(async () => {
  await s.close();
  await store.close();
});

interface OrderBody {
  orderId: string;
  status: string;
  email?: string;
  items: { productId: string; status?: string; productData?: unknown }[];
}
const orderPosts = (since: number) =>
  s.emu.control.requests(since).filter((r) => r.method === "POST" && r.path === "/api/acme/orders");
const acceptedIds = (since: number) =>
  orderPosts(since)
    .filter((r) => r.status === 200)
    .map((r) => (r.body as OrderBody).orderId);
const serviceOrder = (id: number) => s.emu.control.state("acme").orders.find((o) => o.orderId === String(id));

const inWindow = (o: SimOrder) => Date.parse(o.createdAt) >= Date.now() - 60 * DAY_MS;
const excluded = (o: SimOrder) => o.test || o.lines.every((l) => l.giftCard);
const sendable = () => book.all().filter((o) => inWindow(o) && !excluded(o));

async function waitForRun(runId: string) {
  const done = await eventually(
    () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: runId } }),
    (r) => ["completed", "failed", "cancelled"].includes(r.status),
    90_000,
  );
  expect(done.error).toBeNull();
  expect(done.status).toBe("completed");
  return { run: done, progress: parseProgress(done.progress) };
}

async function run(kind: SyncKind, since?: Date) {
  const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shopId, kind, since);
  return waitForRun(run.id);
}

function cliIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const env = { ...process.env, DATABASE_URL: s.t.url, REDIS_PREFIX: s.prefix, REDIS_URL: redisUrl() };
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), env };
}

/** The buyer's address changes in the store (the customer's when there is one: it wins over the order's). */
function changeEmails(orders: SimOrder[], label: string) {
  for (const o of orders) {
    book.update(o.id, (x) => {
      x.email = `${label}.${x.id}@example.net`;
      if (x.customer) x.customer.email = x.email;
    });
  }
  return orders;
}

describe("orders backfill and reconciliation", () => {
  it("GIVEN a shop just connected THEN catalog and 60-day backfill start; every order of the window not excluded is sent once, with its products' data", async () => {
    const since = s.emu.control.lastRequestSeq();
    // What connect does: both runs at once. The orders wait for the catalog.
    const catalog = await startSync({ db: s.t.db, queues: s.web.queues }, shopId, "catalog");
    const orders = await startSync({ db: s.t.db, queues: s.web.queues }, shopId, "orders");
    await waitForRun(catalog.run.id);
    const { run, progress } = await waitForRun(orders.run.id);

    const expected = sendable().map((o) => String(o.id));
    expect(expected.length).toBeGreaterThan(20);
    expect(acceptedIds(since).sort()).toEqual([...expected].sort());
    expect(orderPosts(since)).toHaveLength(expected.length);
    const read = book.all().filter(inWindow).length;
    expect(read).toBeLessThan(book.all().length); // some orders are older than the window
    expect(progress).toMatchObject({
      read,
      sent: expected.length,
      created: expected.length,
      updated: 0,
      unchanged: 0,
      failed: 0,
      total: read,
    });
    expect(Math.abs(run.since!.getTime() - (Date.now() - 60 * DAY_MS))).toBeLessThan(5 * 60_000);

    // Sent after the catalog: every item of a product the service knows carries its data.
    const known = new Set(s.emu.control.state("acme").products.map((p) => p.sku));
    const items = orderPosts(since)
      .flatMap((r) => (r.body as OrderBody).items)
      .filter((i) => known.has(i.productId));
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.productData !== undefined)).toBe(true);

    // States the service gets from the whole order.
    const status = (pick: (o: SimOrder) => boolean) => serviceOrder(sendable().find(pick)!.id)?.status;
    expect(
      status(
        (o) => o.fulfillments.length === 1 && o.fulfillments[0]!.display === "DELIVERED" && o.sourceName === "web",
      ),
    ).toBe("delivered");
    expect(status((o) => o.cancelledAt !== null)).toBe("cancelled");
    expect(status((o) => o.financialStatus === "PENDING" && o.fulfillments.length === 0)).toBe("created");
    expect(status((o) => o.fulfillments.length === 1 && o.fulfillments[0]!.display === "IN_TRANSIT")).toBe("shipped");
    // Test and gift-card-only orders are recorded as excluded, never sent.
    const skipped = book.all().filter((o) => inWindow(o) && excluded(o));
    expect(skipped.length).toBeGreaterThan(0);
    for (const o of skipped) {
      expect(serviceOrder(o.id)).toBeUndefined();
      expect(
        (await s.t.db.orderState.findUnique({ where: { shopId_orderId: { shopId, orderId: String(o.id) } } }))?.status,
      ).toBe("excluded");
    }
  }, 120_000);

  it("GIVEN nothing changed THEN `sync orders` reads every order again, sends nothing and says so", async () => {
    // The first test's run completing is not the end of everything connecting started (the catalog).
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    const io = cliIo();
    expect(await runCli(["sync", "orders", "--shop", SHOP], io)).toBe(0);
    expect(orderPosts(since)).toHaveLength(0);
    const n = sendable().length;
    const read = book.all().filter(inWindow).length;
    expect(io.stdout.join("\n")).toMatch(
      /Started an orders reconciliation for orders-sync\.myshopify\.com: orders created since \d{4}-\d{2}-\d{2}/,
    );
    expect(io.stdout.join("\n")).toContain(
      `Orders sync completed: read ${read}, sent 0 (created 0, updated 0), unchanged ${n}, excluded by settings ${read - n}, failed 0`,
    );
  }, 120_000);

  it("GIVEN orders paid, shipped, delivered and cancelled in the store THEN the reconciliation sends each once and nothing else", async () => {
    const open = sendable();
    const pending = open.find((o) => o.financialStatus === "PENDING" && !o.cancelledAt && o.sourceName === "web")!;
    const [unfulfilled, toCancel] = open.filter(
      (o) => o.financialStatus === "PAID" && !o.cancelledAt && o.fulfillments.length === 0 && o !== pending,
    );
    const inTransit = open.find(
      (o) =>
        o.fulfillments.length === 1 &&
        o.fulfillments[0]!.display === "IN_TRANSIT" &&
        o.lines.every((l) => l.quantity - l.removed - l.fulfilled === 0),
    )!;
    const untouched = open.find((o) => ![pending, unfulfilled, toCancel, inTransit].includes(o))!;
    book.pay(pending.id);
    book.fulfil(unfulfilled!.id);
    book.deliver(inTransit.id);
    book.cancel(toCancel!.id);
    // A change the service never sees (Shopify bumps updated_at for notes, tags, closing).
    book.update(untouched.id, (o) => (o.closedAt = o.updatedAt));

    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    const { progress } = await run("orders", new Date(Date.now() - 60 * DAY_MS));
    const changed = [pending, unfulfilled!, inTransit, toCancel!].map((o) => String(o.id));
    expect(acceptedIds(since).sort()).toEqual([...changed].sort());
    expect(orderPosts(since)).toHaveLength(4);
    expect(progress).toMatchObject({ sent: 4, updated: 4, created: 0, unchanged: sendable().length - 4, failed: 0 });
    expect(serviceOrder(pending.id)?.status).toBe("paid");
    expect(serviceOrder(unfulfilled!.id)?.status).toBe("shipped");
    expect(serviceOrder(inTransit.id)?.status).toBe("delivered");
    expect(serviceOrder(toCancel!.id)?.status).toBe("cancelled");
  }, 120_000);

  it("GIVEN an order the webhooks already sent (split in two shipments) THEN reconciliation leaves it; changed in the store without a webhook, it is sent once", async () => {
    // A guest: webhooks carry no consent, GraphQL has none either, so both paths agree on opt-outs.
    const placed = book.place({ customerIndex: null, lines: [{ productIndex: 2 }, { productIndex: 5 }] });
    const { order } = placed;
    const [first, second] = order.lines;
    const webhooks = [
      ...placed.webhooks,
      ...book.fulfil(order.id, { lineIds: [first!.id] }).webhooks,
      ...book.deliver(order.id).webhooks,
      ...book.fulfil(order.id, { lineIds: [second!.id] }).webhooks,
    ];
    for (const w of webhooks) expect((await s.deliver(w.topic, SHOP, w.payload)).status).toBe(200);
    const last = book.get(order.id)!;
    await eventually(
      () => s.t.db.orderState.findUnique({ where: { shopId_orderId: { shopId, orderId: String(order.id) } } }),
      (st) => st?.sentUpdatedAt?.getTime() === Date.parse(last.updatedAt) && st.status === "shipped",
    );
    const sent = serviceOrder(order.id)!;
    expect(sent.items.map((i) => i.status)).toEqual(["delivered", "shipped"]);
    // The newest state upstream is the first effect; deliveries of the same change may still run.
    await s.idle();

    let since = s.emu.control.lastRequestSeq();
    await run("orders", new Date(Date.now() - DAY_MS));
    expect(s.emu.control.requests(since).filter((r) => r.path.startsWith("/api/acme/orders"))).toHaveLength(0);

    book.update(order.id, (o) => (o.email = "new.address@example.net"));
    since = s.emu.control.lastRequestSeq();
    await run("orders", new Date(Date.now() - DAY_MS));
    expect(acceptedIds(since)).toEqual([String(order.id)]);
    expect(serviceOrder(order.id)).toMatchObject({ email: "new.address@example.net", status: "shipped" });
  }, 120_000);

  it("GIVEN a buyer subscribed to SMS THEN the consent read by the reconciliation is kept for later webhooks: the opt-outs sent do not flip, and no consent read is made", async () => {
    const subscribed = book.all().find((o) => o.customer?.smsConsent === "SUBSCRIBED");
    expect(subscribed).toBeDefined();
    const placed = book.place({
      customerIndex: subscribed!.customer!.id - CUSTOMER_ID_BASE,
      lines: [{ productIndex: 1 }],
    });
    const id = placed.order.id;
    await run("orders", new Date(Date.now() - DAY_MS));
    expect(serviceOrder(id)?.optOutSMS).toBe(false);
    const reads = store.operationCount("CustomerConsent");
    const since = s.emu.control.lastRequestSeq();
    for (const w of book.fulfil(id).webhooks) await s.deliver(w.topic, SHOP, w.payload);
    await eventually(
      async () => orderPosts(since).filter((r) => r.status === 200).length,
      (n) => n >= 1,
    );
    await s.idle();
    const sent = orderPosts(since)
      .filter((r) => r.status === 200)
      .map((r) => r.body as OrderBody & { optOutSMS?: boolean });
    expect(sent.every((b) => b.optOutSMS === false)).toBe(true);
    expect(store.operationCount("CustomerConsent")).toBe(reads);
  }, 120_000);

  it("GIVEN every second order request failing THEN the run resumes where it stopped and each changed order is accepted exactly once", async () => {
    const changed = changeEmails(sendable().slice(0, 12), "changed");
    const since = s.emu.control.lastRequestSeq();
    s.emu.control.setFaults({ errorRate: 0.5, errorStatus: 503, paths: "/orders" });
    try {
      const { progress } = await run("orders", new Date(Date.now() - 60 * DAY_MS));
      expect(progress).toMatchObject({ sent: 12, updated: 12, failed: 0, read: book.all().filter(inWindow).length });
    } finally {
      s.emu.control.clearFaults();
    }
    const posts = orderPosts(since);
    expect(posts.filter((r) => r.status === 503).length).toBeGreaterThanOrEqual(5);
    const accepted = acceptedIds(since);
    expect(accepted.sort()).toEqual(changed.map((o) => String(o.id)).sort());
    expect(new Set(accepted).size).toBe(accepted.length);
    for (const o of changed) expect(serviceOrder(o.id)?.email).toBe(`changed.${o.id}@example.net`);
    expect(s.worker.sink.text()).toContain("orders sync interrupted; resuming");
  }, 120_000);

  it("GIVEN a second runner on the run (BullMQ gave the job to another worker while the first was paused) THEN one steps aside and each change is accepted once", async () => {
    const changed = changeEmails(sendable().slice(0, 20), "paused");
    const since = s.emu.control.lastRequestSeq();
    // Slow requests, so that the second runner starts while the first is still at it.
    s.emu.control.setFaults({ latencyMs: 150, paths: "/orders" });
    try {
      const { run: started } = await startSync(
        { db: s.t.db, queues: s.web.queues },
        shopId,
        "orders",
        new Date(Date.now() - 60 * DAY_MS),
      );
      await eventually(
        () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: started.id } }),
        (r) => r.status === "reading",
        30_000,
      );
      const job = await Job.fromId(s.web.queues.get(QueueName.sync), `orders-read-${jobIdPart(started.id)}`);
      // The paused runner: same job, its lock token gone.
      const second = await ordersRead(job!, s.worker);
      expect(second).not.toEqual({ done: true }); // it did run beside the first
      const { progress } = await waitForRun(started.id);
      expect(progress.read).toBe(book.all().filter(inWindow).length);
    } finally {
      s.emu.control.clearFaults();
    }
    const accepted = acceptedIds(since);
    expect(accepted.sort()).toEqual(changed.map((o) => String(o.id)).sort());
    expect(s.worker.sink.text()).toContain("sync run taken over; stepping aside");
  }, 120_000);

  it("GIVEN Shopify fails the bulk operation THEN the run fails with its error code and `sync orders` says so", async () => {
    // Not ACCESS_DENIED: that one means bulk operations are refused, and the run reads paged instead
    // (bulk-refused.test.ts).
    store.failNextBulkOperation("INTERNAL_SERVER_ERROR");
    const since = s.emu.control.lastRequestSeq();
    const io = cliIo();
    const day = new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10);
    expect(await runCli(["sync", "orders", "--shop", SHOP, "--since", day], io)).toBe(1);
    expect(io.stdout.join("\n")).toContain(`orders created since ${day}`);
    expect(io.stderr.join("\n")).toContain("Orders sync failed: bulk operation failed: INTERNAL_SERVER_ERROR");
    expect(orderPosts(since)).toHaveLength(0);
  }, 60_000);

  it("GIVEN a bad --since THEN a clear error and nothing started", async () => {
    for (const [arg, message] of [
      ["2026-13-01", /--since: 2026-13-01 is not a calendar date/],
      ["yesterday", /--since: expected a date as YYYY-MM-DD, got "yesterday"/],
      ["2999-01-01", /--since: 2999-01-01 is in the future/],
    ] as const) {
      const io = cliIo();
      expect(await runCli(["sync", "orders", "--shop", SHOP, "--since", arg], io)).toBe(2);
      expect(io.stderr.join("\n")).toMatch(message);
    }
    expect(
      await s.t.db.syncRun.count({
        where: { shopId, kind: "orders", status: { in: ["pending", "running", "reading"] } },
      }),
    ).toBe(0);
  });
});
