import { readFileSync } from "node:fs";
import type { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { orderPayload } from "../../test/helpers/order-payloads";
import { startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { QueueName } from "../../app/.server/queues/names";
import { createOrderStateRepository } from "../../app/.server/orders/order-state.repository";
import { defaultSettings, type ShopSettings } from "../../app/.server/settings/settings";
import { OrderLockLostError } from "../../app/.server/orders/order-lock";
import { createWorkerContext } from "../context";
import { deliverIfDue } from "./order.processor";
import { orderChanged } from "./order.handlers";
import { seedOfflineSession } from "../../test/helpers/offline-session";
import { pollScheduleKeys } from "../../app/.server/activity/poll-schedule";
import { ORDER_REVIEW_CHANCE } from "../../app/.server/activity/cadence";
import { deliverJobId } from "../../app/.server/jobs";

// Live order sync against the real emulator, Redis and a simulated Shopify store: webhook → route →
// queue → worker → mapper (productData from the catalog mirror) → service. The shop has an offline
// session on the simulated store, so every Admin API call the sync makes is seen and counted.

type Json = Record<string, unknown>;
const fixture = (path: string): Json => JSON.parse(readFileSync(path, "utf8"));
const testOrder = fixture("test/fixtures/orders/test-order.json");
const tee = fixture("test/fixtures/products/apparel-tee.products-update.json");

const SHOP = "orders-live.myshopify.com";
const RUNNER = { product: 8712345677899, variant: 45012345678923, sku: "TR2-BLU-42" }; // the fixture's line
const LINE_ID = 14783254233163;
let s: Stack;
let store: SimulatedStore;
let shopId: string;

/** products/create of a product with one variant, as Shopify sends it (the tee fixture, re-keyed). */
function productPayload(id: number, title: string, variant: { id: number; sku: string }): Json {
  const v = (tee.variants as Json[])[0]!;
  return {
    ...tee,
    id,
    admin_graphql_api_id: `gid://shopify/Product/${id}`,
    title,
    handle: title.toLowerCase().replace(/\W+/g, "-"),
    vendor: "Northpeak",
    variants: [
      {
        ...v,
        id: variant.id,
        product_id: id,
        sku: variant.sku,
        admin_graphql_api_id: `gid://shopify/ProductVariant/${variant.id}`,
      },
    ],
    variant_gids: [{ admin_graphql_api_id: `gid://shopify/ProductVariant/${variant.id}`, updated_at: tee.updated_at }],
  };
}

const order = orderPayload;

/** A REST fulfillment of the fixture's one line, as fulfillments/create delivers it. */
function fulfillment(orderId: number, id: number, at: string, extra: Json = {}): Json {
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Fulfillment/${id}`,
    order_id: orderId,
    status: "success",
    created_at: at,
    updated_at: at,
    service: "manual",
    shipment_status: null,
    location_id: 71234567890,
    name: "#1001.1",
    tracking_company: "UPS",
    tracking_number: "1Z999AA10123456784",
    tracking_numbers: ["1Z999AA10123456784"],
    tracking_url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    tracking_urls: ["https://www.ups.com/track?tracknum=1Z999AA10123456784"],
    // Buyer contact data Shopify includes; it must never be stored.
    email: "avery.johnson@example.com",
    destination: {
      first_name: "Avery",
      last_name: "Johnson",
      address1: "350 Fifth Avenue",
      city: "New York",
      zip: "10118",
      phone: "+1 212-555-0134",
      country_code: "US",
    },
    receipt: {},
    origin_address: {},
    line_items: [
      {
        id: LINE_ID,
        quantity: 1,
        product_id: RUNNER.product,
        variant_id: RUNNER.variant,
        sku: RUNNER.sku,
        fulfillment_status: "fulfilled",
        fulfillable_quantity: 0,
      },
    ],
    ...extra,
  };
}

/** The order fully fulfilled by one fulfillment, as orders/fulfilled delivers it. */
function fulfilledOrder(id: number, updatedAt: string, fulfillmentId: number, shippedAt: string): Json {
  const base = order(id);
  const lines = (base.line_items as Json[]).map((l) => ({
    ...l,
    fulfillable_quantity: 0,
    fulfillment_status: "fulfilled",
  }));
  const f = fulfillment(id, fulfillmentId, shippedAt);
  delete f.email;
  delete f.destination;
  return { ...base, updated_at: updatedAt, fulfillment_status: "fulfilled", line_items: lines, fulfillments: [f] };
}

function fulfillmentEvent(orderId: number, fulfillmentId: number, id: number, status: string, at: string): Json {
  return {
    id,
    admin_graphql_api_id: `gid://shopify/FulfillmentEvent/${id}`,
    fulfillment_id: fulfillmentId,
    order_id: orderId,
    shop_id: 68123456789,
    status,
    message: null,
    happened_at: at,
    created_at: at,
    updated_at: at,
    estimated_delivery_at: null,
    city: "New York",
    province: "New York",
    country: "United States",
    zip: "10118",
    address1: null,
    latitude: null,
    longitude: null,
  };
}

const orderCalls = (since: number) =>
  s.emu.control.requests(since).filter((r) => r.path.startsWith("/api/acme/orders"));
const stored = (orderId: number | string) =>
  s.emu.control.state("acme").orders.find((o) => o.orderId === String(orderId));
const orderState = (orderId: number) => createOrderStateRepository(s.t.db).get(shopId, String(orderId));
const adminCalls = () => store.requests.length;

/** Delivers a webhook and waits until the worker has finished with it; returns its recorded outcome. */
async function deliver(topic: string, payload: unknown, webhookId = `wh-${Math.random().toString(36).slice(2)}`) {
  expect((await s.deliver(topic, SHOP, payload, { webhookId })).status).toBe(200);
  const row = await eventually(
    () => s.t.db.webhookDelivery.findUnique({ where: { id: webhookId } }),
    (r) => r?.status === "done" || r?.status === "failed",
  );
  return row!;
}

async function setOrderSettings(patch: Partial<ShopSettings["orders"]>) {
  const settings = await s.web.shops.settings(SHOP);
  await s.web.shops.updateSettings(SHOP, { ...settings, orders: { ...settings.orders, ...patch } });
}

beforeAll(async () => {
  store = await startSimulatedStore({ shop: SHOP });
  s = await startStack("orders-live", {
    SHOPIFY_ORIGIN: store.originTemplate,
    CATALOG_FLUSH_WINDOW_MS: "100",
    CATALOG_FLUSH_MAX_WAIT_MS: "500",
    // Shipment news goes at once here; its grace (waiting for the order webhook) is proven in
    // order.tracking-grace.test.ts.
    ORDER_TRACKING_GRACE_MS: "0",
  });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
  shopId = (await s.web.shops.get(SHOP)).id;
  // A warm mirror: the catalog sync has sent the product the orders name.
  await deliver(
    "products/create",
    productPayload(RUNNER.product, "Trail Runner 2", { id: RUNNER.variant, sku: RUNNER.sku }),
  );
  await eventually(
    () => s.t.db.productMirror.findFirst({ where: { shopId, productId: String(RUNNER.product) } }),
    (m) => m?.status === "synced",
  );
});
afterAll(async () => {
  await s?.close();
  await store?.close();
});

describe("order sync, one order through its life", () => {
  const ID = 5923018113099;
  const T0 = "2026-11-18T09:42:17-05:00";
  const T1 = "2026-11-18T09:42:21-05:00";
  const T2 = "2026-11-18T10:30:00-05:00";
  const T3 = "2026-11-19T08:00:00-05:00";
  const FULFILLMENT = 5123456700001;
  let adminBefore: number;

  it("GIVEN orders/create THEN one version-2 order with the catalog's keys and productData; one Admin API call, the new customer's consent", async () => {
    adminBefore = adminCalls();
    const since = s.emu.control.lastRequestSeq();
    const outcome = await deliver("orders/create", order(ID, { financial_status: "pending", updated_at: T0 }));
    expect(outcome.status).toBe("done");
    const calls = orderCalls(since);
    expect(calls.map((c) => `${c.method} ${c.status}`)).toEqual(["POST 200"]);
    expect((calls[0]!.body as Json).version).toBe(2);
    const o = stored(ID)!;
    expect(o).toMatchObject({
      version: 2,
      orderId: String(ID),
      status: "created",
      userId: "7412345678901",
      email: "avery.johnson@example.com",
    });
    expect(o.items).toEqual([
      {
        productId: String(RUNNER.product),
        sku: String(RUNNER.variant),
        skuName: "Blue / 42",
        status: "created",
        cancelled: false,
        productData: expect.objectContaining({
          name: "Trail Runner 2",
          brand: "Northpeak",
          url: "https://orders-live.example.com/products/trail-runner-2",
          categories: expect.any(Array),
        }),
      },
    ]);
    // The catalog has the same keys: product sku and variant.
    const product = s.emu.control.state("acme").products.find((p) => p.sku === String(RUNNER.product));
    expect(product?.variants).toContain(String(RUNNER.variant));
    // The customer was not known: their consent was read once (consent.sync.test.ts has the rest).
    expect(store.requests.slice(adminBefore).map((r) => r.operationName)).toEqual(["CustomerConsent"]);
    adminBefore = adminCalls();
  });

  it("GIVEN orders/paid THEN status paid with exactly one more request", async () => {
    const since = s.emu.control.lastRequestSeq();
    await deliver("orders/paid", order(ID, { updated_at: T1 }), "paid-1");
    expect(orderCalls(since)).toHaveLength(1);
    expect(stored(ID)).toMatchObject({ status: "paid", authorizedDate: "2026-11-18T14:42:17.000Z" });
    const state = await orderState(ID);
    expect(state).toMatchObject({ status: "paid", customerId: "7412345678901", sentUpdatedAt: new Date(T1) });
    expect(adminCalls()).toBe(adminBefore);
  });

  it("GIVEN the same delivery again (same webhook id) THEN no second request", async () => {
    const since = s.emu.control.lastRequestSeq();
    await deliver("orders/paid", order(ID, { updated_at: T1, note: "replayed" }), "paid-1");
    expect(await s.t.db.webhookDelivery.count({ where: { id: "paid-1" } })).toBe(1);
    expect(orderCalls(since)).toHaveLength(0);
  });

  it("GIVEN an older payload after a newer one THEN nothing changes upstream or in the state", async () => {
    const since = s.emu.control.lastRequestSeq();
    const outcome = await deliver(
      "orders/updated",
      order(ID, { financial_status: "authorized", updated_at: "2026-11-18T09:42:19-05:00" }),
    );
    expect(outcome.status).toBe("done");
    expect(orderCalls(since)).toHaveLength(0);
    expect(stored(ID)?.status).toBe("paid");
    expect((await orderState(ID))?.sentUpdatedAt).toEqual(new Date(T1));
  });

  it("GIVEN a newer payload that changes nothing the service sees (tags, note) THEN no request, updated_at recorded", async () => {
    const since = s.emu.control.lastRequestSeq();
    await deliver("orders/updated", order(ID, { updated_at: T2, tags: "vip", note: "leave at the door" }));
    expect(orderCalls(since)).toHaveLength(0);
    expect((await orderState(ID))?.sentUpdatedAt).toEqual(new Date(T2));
  });

  it("GIVEN orders/fulfilled THEN shipped; GIVEN a delivered fulfillment event THEN one update to delivered with its date", async () => {
    let since = s.emu.control.lastRequestSeq();
    await deliver("orders/fulfilled", fulfilledOrder(ID, T3, FULFILLMENT, T3));
    expect(orderCalls(since)).toHaveLength(1);
    expect(stored(ID)?.status).toBe("shipped");

    since = s.emu.control.lastRequestSeq();
    await deliver(
      "fulfillment_events/create",
      fulfillmentEvent(ID, FULFILLMENT, 88001, "in_transit", "2026-11-19T18:00:00-05:00"),
    );
    expect(orderCalls(since)).toHaveLength(0);

    await deliver(
      "fulfillment_events/create",
      fulfillmentEvent(ID, FULFILLMENT, 88002, "delivered", "2026-11-20T21:05:00-05:00"),
    );
    const calls = orderCalls(since);
    expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([`PUT /api/acme/orders/${ID} 200`]);
    // The calendar day where it was delivered (New York), not the UTC day.
    expect(calls[0]!.body).toEqual({ status: "delivered", deliveredDate: "2026-11-20" });
    expect(stored(ID)).toMatchObject({ status: "delivered", deliveredDate: "2026-11-20" });
    expect(adminCalls()).toBe(adminBefore);
    // Its buyer is asked for a review, and about one in ten writes one: a small bump of the shop's
    // rate of changes, no poll of its own and no active pace.
    const keys = pollScheduleKeys(s.prefix);
    const [count] = (await s.web.queues.redis.hget(keys.changes, shopId))!.split(":").map(Number);
    expect(count).toBeCloseTo(ORDER_REVIEW_CHANCE, 3);
    expect(await s.web.queues.redis.zscore(keys.active, shopId)).toBeNull();
  });

  it("GIVEN the same event delivered again with a new webhook id THEN no request", async () => {
    const since = s.emu.control.lastRequestSeq();
    await deliver(
      "fulfillment_events/create",
      fulfillmentEvent(ID, FULFILLMENT, 88002, "delivered", "2026-11-20T21:05:00-05:00"),
    );
    expect(orderCalls(since)).toHaveLength(0);
  });

  it("GIVEN the state recorded THEN it holds ids, times, hashes, statuses and the order's name, never buyer contact data", async () => {
    const row = await s.t.db.orderState.findFirst({ where: { shopId, orderId: String(ID) } });
    const text = JSON.stringify(row);
    for (const contact of ["avery", "Avery", "Johnson", "example.com", "555-0134", "350 Fifth", "10118"])
      expect(text).not.toContain(contact);
    // The name the merchant knows the order by, for the admin's lists.
    expect(row).toMatchObject({ status: "delivered", customerId: "7412345678901", name: `#${1000 + (ID % 1000)}` });
  });
});

describe("order sync, other paths", () => {
  it("GIVEN two changes of an order in one second, the older delivered after the newer THEN the newer stays", async () => {
    const ID = 5923018400010;
    const AT = "2026-11-18T09:42:17-05:00";
    const since = s.emu.control.lastRequestSeq();
    const send = async (patch: Json, webhookId: string, triggeredAt: string) => {
      const res = await s.deliver("orders/updated", SHOP, order(ID, { updated_at: AT, ...patch }), {
        webhookId,
        triggeredAt,
        eventId: webhookId,
      });
      expect(res.status).toBe(200);
      return eventually(
        () => s.t.db.webhookDelivery.findUnique({ where: { id: webhookId } }),
        (r) => r?.status === "done",
      );
    };
    // Paid a moment after it was created, within the second; the creation's delivery comes last.
    await send({ financial_status: "paid" }, "same-second-paid", "2026-11-18T14:42:17.800Z");
    await send({ financial_status: "pending" }, "same-second-pending", "2026-11-18T14:42:17.200Z");
    expect(stored(ID)?.status).toBe("paid");
    const posts = orderCalls(since).filter((c) => (c.body as Json).orderId === String(ID));
    expect(posts.map((c) => (c.body as Json).status)).toEqual(["paid"]);
  });

  it("GIVEN a paid order THEN fulfillments/create moves it to shipped and a delivered fulfillments/update to delivered", async () => {
    const ID = 5923018400001;
    const F = 5123456700101;
    await deliver("orders/create", order(ID, { updated_at: "2026-11-18T09:42:21-05:00" }));
    expect(stored(ID)?.status).toBe("paid");

    let since = s.emu.control.lastRequestSeq();
    await deliver("fulfillments/create", fulfillment(ID, F, "2026-11-19T10:00:00-05:00"));
    expect(orderCalls(since).map((c) => c.body)).toEqual([{ status: "shipped" }]);
    expect(stored(ID)?.status).toBe("shipped");

    since = s.emu.control.lastRequestSeq();
    await deliver(
      "fulfillments/update",
      fulfillment(ID, F, "2026-11-19T10:00:00-05:00", {
        shipment_status: "delivered",
        updated_at: "2026-11-21T09:30:00-05:00",
      }),
    );
    expect(orderCalls(since).map((c) => c.body)).toEqual([{ status: "delivered", deliveredDate: "2026-11-21" }]);
    expect(stored(ID)?.status).toBe("delivered");
    const row = await s.t.db.orderState.findFirst({ where: { shopId, orderId: String(ID) } });
    expect(row?.fulfillmentEvents).not.toMatch(/avery|Fifth Avenue|1Z999/i);
  });

  it("GIVEN fulfillment news for an order never seen THEN it is recorded and the first order webhook carries it", async () => {
    const ID = 5923018400002;
    const F = 5123456700201;
    const since = s.emu.control.lastRequestSeq();
    await deliver("fulfillments/create", fulfillment(ID, F, "2026-11-19T10:00:00-05:00"));
    await deliver(
      "fulfillment_events/create",
      fulfillmentEvent(ID, F, 88101, "delivered", "2026-11-20T12:00:00-05:00"),
    );
    expect(orderCalls(since)).toHaveLength(0);
    await deliver("orders/fulfilled", fulfilledOrder(ID, "2026-11-19T10:00:05-05:00", F, "2026-11-19T10:00:00-05:00"));
    expect(orderCalls(since)).toHaveLength(1);
    expect(stored(ID)).toMatchObject({ status: "delivered", deliveredDate: "2026-11-20" });
  });

  it("GIVEN orders/cancelled THEN status cancelled", async () => {
    const ID = 5923018400003;
    await deliver("orders/create", order(ID, { updated_at: "2026-11-18T09:42:21-05:00" }));
    await deliver(
      "orders/cancelled",
      order(ID, {
        updated_at: "2026-11-18T12:00:00-05:00",
        cancelled_at: "2026-11-18T12:00:00-05:00",
        cancel_reason: "customer",
        financial_status: "refunded",
      }),
    );
    expect(stored(ID)).toMatchObject({ status: "cancelled" });
    expect((await orderState(ID))?.status).toBe("cancelled");
  });

  it("GIVEN a test order THEN nothing is sent and the exclusion is recorded", async () => {
    const since = s.emu.control.lastRequestSeq();
    const outcome = await deliver("orders/create", testOrder);
    expect(outcome.status).toBe("done");
    expect(orderCalls(since)).toHaveLength(0);
    expect(stored(testOrder.id as number)).toBeUndefined();
    expect((await orderState(testOrder.id as number))?.status).toBe("excluded");
  });

  it("GIVEN an order payload without an id THEN the delivery fails with its reason, never retried", async () => {
    const { id: _id, ...withoutId } = order(1);
    const outcome = await deliver("orders/updated", withoutId);
    expect(outcome).toMatchObject({ status: "failed", error: expect.stringMatching(/order payload unusable: id/) });
  });

  it("GIVEN a product the mirror lacks THEN the order is sent without its productData and the product is fetched once", async () => {
    const node = store.addProduct({ title: "Waxed Canvas Tote" });
    const productId = Number(node.id.split("/").pop());
    const variantId = Number(node.variants[0]!.id.split("/").pop());
    const ID = 5923018400004;
    const base = order(ID);
    const lines = [
      ...(base.line_items as Json[]),
      {
        ...(base.line_items as Json[])[0],
        id: 14783254233999,
        product_id: productId,
        variant_id: variantId,
        sku: node.variants[0]!.sku,
        title: "Waxed Canvas Tote",
        variant_title: null,
      },
    ];
    const before = adminCalls();
    await deliver("orders/create", { ...base, line_items: lines });
    const items = stored(ID)!.items as Json[];
    expect(items.find((i) => i.productId === String(RUNNER.product))?.productData).toBeDefined();
    expect(items.find((i) => i.productId === String(productId))).toEqual({
      productId: String(productId),
      sku: String(variantId),
      status: "paid",
      cancelled: false,
    });

    // The fetch-product job read it from Shopify and the catalog path sent it.
    await eventually(
      async () => s.emu.control.state("acme").products.find((p) => p.sku === String(productId)),
      Boolean,
    );
    expect(store.requests.slice(before).map((r) => [r.operationName, r.variables.id])).toEqual([
      ["ProductById", node.id],
    ]);
    await eventually(
      () => s.t.db.productMirror.findFirst({ where: { shopId, productId: String(productId) } }),
      (m) => m?.status === "synced",
    );

    // The next order of that product is complete, without another Admin API call.
    const next = adminCalls();
    await deliver("orders/create", { ...order(ID + 1), line_items: lines });
    expect((stored(ID + 1)!.items as Json[]).find((i) => i.productId === String(productId))?.productData).toMatchObject(
      { name: "Waxed Canvas Tote" },
    );
    expect(adminCalls()).toBe(next);
  });

  it("GIVEN deliveries of one order processed at once THEN the newest state wins", async () => {
    const ID = 5923018400005;
    const F = 5123456700501;
    const T3 = "2026-11-19T08:00:00-05:00";
    const since = s.emu.control.lastRequestSeq();
    await Promise.all([
      deliver("orders/create", order(ID, { financial_status: "pending", updated_at: "2026-11-18T09:42:17-05:00" })),
      deliver("orders/paid", order(ID, { updated_at: "2026-11-18T09:42:21-05:00" })),
      deliver("orders/fulfilled", fulfilledOrder(ID, T3, F, T3)),
      deliver("orders/updated", order(ID, { financial_status: "authorized", updated_at: "2026-11-18T09:42:19-05:00" })),
    ]);
    expect(stored(ID)?.status).toBe("shipped");
    expect((await orderState(ID))?.sentUpdatedAt).toEqual(new Date(T3));
    const posts = orderCalls(since).filter((c) => (c.body as Json).orderId === String(ID));
    expect(posts.length).toBeLessThanOrEqual(4);
    expect((posts.at(-1)!.body as Json).status).toBe("shipped");
  });

  it("GIVEN an order job whose lock lapsed while Redis was away THEN it sends nothing; newer form stays", async () => {
    const ID = 5923018400008;
    const OLDER = "2026-11-18T09:42:17-05:00";
    const NEWER = "2026-11-18T09:42:21-05:00";
    const since = s.emu.control.lastRequestSeq();
    // A second worker process with a short lock, whose Redis stops answering (a BLPOP holds its one
    // connection) as its request for the older payload is about to go. Its lock lapses, and the
    // stack's worker applies the newer payload meanwhile; then Redis answers again.
    const away = `${s.prefix}:test:redis-away`;
    let paused = false;
    const stalling: typeof fetch = async (input, init) => {
      if (!paused && String(input).includes("/acme/orders")) {
        paused = true;
        const back = other.queues.redis.blpop(away, 0);
        await deliver("orders/updated", order(ID, { updated_at: NEWER }));
        await s.worker.queues.redis.lpush(away, "back");
        await back;
      }
      return fetch(input, init);
    };
    const other = createWorkerContext(
      { ...s.config, WORKER_LOCK_MS: 1000 },
      { log: s.worker.log, db: s.t.db, fetch: stalling },
    );
    const older = {
      deliveryId: "older-create",
      eventId: null,
      topic: "orders/create",
      shop: SHOP,
      apiVersion: null,
      triggeredAt: null,
      receivedAt: new Date().toISOString(),
      payload: order(ID, { financial_status: "pending", updated_at: OLDER }),
    };
    try {
      const outcome = await orderChanged(older, other, {} as Job).catch((e: unknown) => e);
      expect(paused).toBe(true);
      expect(stored(ID)?.status).toBe("paid");
      expect((await orderState(ID))?.sentUpdatedAt).toEqual(new Date(NEWER));
      expect(outcome).toBeInstanceOf(OrderLockLostError);
      // Its request was under way when the lock lapsed: it may have reached the service (here it was
      // cut off first), so the fence forgets what the service holds and has the order read again.
      expect((outcome as OrderLockLostError).sent).toBe(true);
      expect((await orderState(ID))?.fingerprint).toBeNull();
      // Its retry finds the newer payload applied, and drops the older one.
      await orderChanged(older, other, {} as Job);
      const posts = orderCalls(since).filter((c) => (c.body as Json).orderId === String(ID));
      expect(posts.map((c) => [(c.body as Json).status, c.status])).toEqual([["paid", 200]]);
    } finally {
      await other.close();
    }
  });

  it("GIVEN an older order request that reaches the service after its lock lapsed and a newer one landed THEN nothing of it is recorded and the newest form is sent after it", async () => {
    const ID = 5923018400009;
    const OLDER = "2026-11-18T09:42:17-05:00";
    const NEWER = "2026-11-18T09:42:21-05:00";
    const since = s.emu.control.lastRequestSeq();
    // As above, but the older request is already at the service: it is not cut off, and it lands
    // after the newer one (the service answers it once the other worker's Redis is back).
    const away = `${s.prefix}:test:redis-away-2`;
    let paused = false;
    const late: typeof fetch = async (input, init) => {
      if (!paused && String(input).includes("/acme/orders")) {
        paused = true;
        const back = other.queues.redis.blpop(away, 0);
        await deliver("orders/updated", order(ID, { updated_at: NEWER }));
        await s.worker.queues.redis.lpush(away, "back");
        await back;
        return fetch(input, { ...init, signal: undefined });
      }
      return fetch(input, init);
    };
    const other = createWorkerContext(
      { ...s.config, WORKER_LOCK_MS: 1000 },
      { log: s.worker.log, db: s.t.db, fetch: late },
    );
    const older = {
      deliveryId: "older-create-late",
      eventId: null,
      topic: "orders/create",
      shop: SHOP,
      apiVersion: null,
      triggeredAt: null,
      receivedAt: new Date().toISOString(),
      payload: order(ID, { financial_status: "pending", updated_at: OLDER }),
    };
    try {
      const outcome = await orderChanged(older, other, {} as Job).catch((e: unknown) => e);
      expect(paused).toBe(true);
      // The older form did land last: what the fence is for.
      expect(stored(ID)?.status).toBe("created");
      expect(outcome).toBeInstanceOf(OrderLockLostError);
      expect((outcome as OrderLockLostError).sent).toBe(true);
      // Nothing of the late request recorded; the service's copy is forgotten, the version kept.
      const state = await orderState(ID);
      expect(state?.sentUpdatedAt).toEqual(new Date(NEWER));
      expect(state?.fingerprint).toBeNull();
      // The order is read again from Shopify: an orders reconciliation from its creation.
      const runs = await s.t.db.syncRun.findMany({ where: { shopId, kind: "orders" } });
      expect(runs.length).toBeGreaterThan(0);
      // The retry of the older payload is still dropped; the newest form, read again (here Shopify's
      // redelivery stands in for the reconciliation's read), is sent rather than taken as unchanged.
      await orderChanged(older, other, {} as Job);
      await deliver("orders/updated", order(ID, { updated_at: NEWER }));
      await eventually(
        async () => stored(ID)?.status,
        (st) => st === "paid",
      );
      const posts = orderCalls(since).filter((c) => (c.body as Json).orderId === String(ID));
      expect(posts.map((c) => (c.body as Json).status)).toEqual(["paid", "created", "paid"]);
    } finally {
      await other.close();
    }
  });

  it("GIVEN a 429 with Retry-After THEN the order waits that long and is sent once accepted", async () => {
    const ID = 5923018400006;
    // Any call still coming from an earlier test would take the 429 meant for this order.
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    s.emu.control.setFaults({ rateLimit: { count: 1, retryAfterSeconds: 1 }, paths: "/orders" });
    try {
      await deliver("orders/create", order(ID));
    } finally {
      s.emu.control.clearFaults();
    }
    const [limited, ok] = orderCalls(since);
    expect([limited?.status, ok?.status]).toEqual([429, 200]);
    expect(Date.parse(ok!.at) - Date.parse(limited!.at)).toBeGreaterThanOrEqual(950);
    expect(stored(ID)?.status).toBe("paid");
  });
});

describe("order sync, delivered N days after shipping", () => {
  beforeAll(() => setOrderSettings({ deliveredAfterDays: 1 }));
  afterAll(() => setOrderSettings({ deliveredAfterDays: defaultSettings.orders.deliveredAfterDays }));

  const maintenance = () => s.worker.queues.get(QueueName.maintenance);
  const shippedAt = () => new Date(Date.now() - 3_600_000);

  it("GIVEN a shipped order without tracking THEN a timer for shipping + 1 day, which sends delivered with that day", async () => {
    const ID = 5923018400101;
    const shipped = shippedAt();
    await deliver("orders/fulfilled", fulfilledOrder(ID, shipped.toISOString(), 5123456701001, shipped.toISOString()));
    expect(stored(ID)?.status).toBe("shipped");
    const due = new Date(shipped.getTime() + 86_400_000);
    expect((await orderState(ID))?.deliveryDueAt).toEqual(due);
    const timer = await maintenance().getJob(deliverJobId(shopId, String(ID), due));
    expect(await timer?.getState()).toBe("delayed");
    expect(timer!.delay).toBeGreaterThan(22 * 3_600_000);

    // Repeated deliveries do not add a second timer.
    await deliver("orders/updated", fulfilledOrder(ID, shipped.toISOString(), 5123456701001, shipped.toISOString()));
    expect((await maintenance().getDelayed()).filter((j) => j.data.orderId === String(ID))).toHaveLength(1);

    // Its time has come (promoted: the job stands for its due time).
    const since = s.emu.control.lastRequestSeq();
    await timer!.promote();
    await eventually(
      async () => stored(ID)?.status,
      (st) => st === "delivered",
    );
    expect(orderCalls(since).map((c) => c.body)).toEqual([
      { status: "delivered", deliveredDate: due.toISOString().slice(0, 10) },
    ]);
    // The local state is written once the service accepted the change, a moment after.
    await eventually(
      () => orderState(ID),
      (st) => st?.status === "delivered" && st.deliveryDueAt === null,
    );
  });

  it("GIVEN an order cancelled before its due time THEN the timer is gone and running it sends nothing", async () => {
    const ID = 5923018400102;
    const shipped = shippedAt();
    await deliver("orders/fulfilled", fulfilledOrder(ID, shipped.toISOString(), 5123456701002, shipped.toISOString()));
    const due = (await orderState(ID))!.deliveryDueAt!;
    expect(await maintenance().getJob(deliverJobId(shopId, String(ID), due))).toBeDefined();

    const cancelled = new Date(shipped.getTime() + 60_000).toISOString();
    await deliver("orders/cancelled", {
      ...fulfilledOrder(ID, cancelled, 5123456701002, shipped.toISOString()),
      cancelled_at: cancelled,
      cancel_reason: "other",
    });
    expect(stored(ID)?.status).toBe("cancelled");
    expect(await maintenance().getJob(deliverJobId(shopId, String(ID), due))).toBeUndefined();

    // A timer that ran anyway (removed too late) changes nothing.
    const since = s.emu.control.lastRequestSeq();
    const data = { shop: SHOP, shopId, orderId: String(ID), dueAt: due.toISOString() };
    expect(await deliverIfDue({ data } as Job, s.worker)).toEqual({ skipped: "order cancelled" });
    expect(orderCalls(since)).toHaveLength(0);
  });
});
