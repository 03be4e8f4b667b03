import type { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { OrderBook, generateProduct, productWebhookPayload, type OrderChange } from "../../sandbox/simulated-store";
import { QueueName } from "../../app/.server/queues/names";
import { ANNOUNCE_TRACKING } from "../../app/.server/jobs";

// Shipment news from fulfillment webhooks waits ORDER_TRACKING_GRACE_MS for the order webhook
// Shopify sends with it, so that one change costs one request. The grace is long here (60 s) and
// the tests run each timer by promoting it, so that no assertion depends on how fast the machine is.
// Payloads are the simulated store's: each change gives the webhooks Shopify sends for it.

const SHOP = "orders-grace.myshopify.com";
const SEED = 5;
let s: Stack;
const book = new OrderBook({ seed: SEED, productCount: 3 });

const maintenance = () => s.worker.queues.get(QueueName.maintenance);
const orderCalls = (since: number) =>
  s.emu.control.requests(since).filter((r) => r.path.startsWith("/api/acme/orders"));
const describeCalls = (since: number) =>
  orderCalls(since).map((c) => `${c.method} ${(c.body as { status?: string }).status}`);

async function deliver(topic: string, payload: unknown) {
  const webhookId = `wh-${Math.random().toString(36).slice(2)}`;
  expect((await s.deliver(topic, SHOP, payload, { webhookId })).status).toBe(200);
  await eventually(
    () => s.t.db.webhookDelivery.findUnique({ where: { id: webhookId } }),
    (r) => r?.status === "done",
  );
}

/** Delivers the change's webhooks one after the other, each processed before the next (`only`: some of them). */
async function deliverChange(change: OrderChange, only?: string[]) {
  for (const w of change.webhooks) if (!only || only.includes(w.topic)) await deliver(w.topic, w.payload);
}

async function timers(orderId: number): Promise<Job[]> {
  return (await maintenance().getDelayed()).filter(
    (j) => j.name === ANNOUNCE_TRACKING && j.data.orderId === String(orderId),
  );
}

/** Runs a waiting timer now and waits for its end. */
async function runTimer(job: Job) {
  await job.promote();
  await eventually(
    () => job.getState(),
    (state) => !["delayed", "waiting", "active", "prioritized"].includes(state),
  );
}

beforeAll(async () => {
  s = await startStack("orders-grace", {
    ORDER_TRACKING_GRACE_MS: "60000",
    CATALOG_FLUSH_WINDOW_MS: "100",
    CATALOG_FLUSH_MAX_WAIT_MS: "500",
  });
  await s.connect(SHOP);
  // A warm mirror: the orders' products are in the catalog.
  for (let i = 0; i < book.productCount; i++)
    await deliver("products/create", productWebhookPayload(generateProduct(i, SEED)));
  const shopId = (await s.web.shops.get(SHOP)).id;
  await eventually(
    () => s.t.db.productMirror.count({ where: { shopId, status: "synced" } }),
    (n) => n === book.productCount,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe("shipment news waits for the order webhook", () => {
  it("GIVEN fulfillments/create first, then orders/fulfilled and orders/updated THEN one request: the order, shipped", async () => {
    const placed = book.place({ lines: [{ productIndex: 0 }, { productIndex: 1 }] });
    await deliverChange(placed);
    const since = s.emu.control.lastRequestSeq();

    const shipment = book.fulfil(placed.order.id);
    await deliverChange(shipment, ["fulfillments/create"]);
    expect(orderCalls(since)).toHaveLength(0);
    const [timer] = await timers(placed.order.id);
    expect(timer).toBeDefined();

    await deliverChange(shipment, ["orders/fulfilled", "orders/updated"]);
    expect(describeCalls(since)).toEqual(["POST shipped"]);
    // The timer finds the news told.
    await runTimer(timer!);
    expect(describeCalls(since)).toEqual(["POST shipped"]);
    expect(
      s.emu.control
        .state("acme")
        .orders.find((o) => o.orderId === String(placed.order.id))
        ?.items.map((i) => i.status),
    ).toEqual(["shipped", "shipped"]);
  });

  it("GIVEN a delivered fulfillment event and no order webhook THEN one status update when the grace ends", async () => {
    const placed = book.place({ lines: [{ productIndex: 2 }] });
    await deliverChange(placed);
    const shipment = book.fulfil(placed.order.id);
    await deliverChange(shipment);
    for (const t of await timers(placed.order.id)) await runTimer(t);
    const since = s.emu.control.lastRequestSeq();

    const delivery = book.deliver(placed.order.id);
    await deliverChange(delivery, ["fulfillment_events/create"]);
    expect(orderCalls(since)).toHaveLength(0);
    const [timer] = await timers(placed.order.id);
    await runTimer(timer!);
    const calls = orderCalls(since);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`PUT /api/acme/orders/${placed.order.id}`]);
    expect(calls[0]!.body).toEqual({
      status: "delivered",
      deliveredDate: delivery.order.fulfillments[0]!.deliveredAt!.slice(0, 10),
    });
  });

  it("GIVEN delivery news inside the grace of the shipment's THEN the shipment's timer leaves it to the order webhook: one request per change", async () => {
    const placed = book.place({ lines: [{ productIndex: 1 }] });
    await deliverChange(placed);
    const since = s.emu.control.lastRequestSeq();

    const shipment = book.fulfil(placed.order.id);
    await deliverChange(shipment);
    const [shipmentTimer] = await timers(placed.order.id);
    const delivery = book.deliver(placed.order.id);
    await deliverChange(delivery, ["fulfillment_events/create"]);
    expect(await timers(placed.order.id)).toHaveLength(2);

    // The shipment's grace ends before the delivery's order webhook is processed.
    await runTimer(shipmentTimer!);
    expect(describeCalls(since)).toEqual(["POST shipped"]);

    await deliverChange(delivery, ["fulfillments/update", "orders/updated"]);
    for (const t of await timers(placed.order.id)) await runTimer(t);
    expect(describeCalls(since)).toEqual(["POST shipped", "POST delivered"]);
  });
});
