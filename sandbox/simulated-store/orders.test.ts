import { afterAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createAdminGraphql } from "../../app/.server/shopify/admin-graphql";
import { HISTORY_LINES_PER_ORDER } from "../../app/.server/shopify/shopper-documents";
import { readBulkJsonl, startBulkQuery, waitForBulkOperation } from "../../app/.server/shopify/bulk-operations";
import { bulkOrdersQuery } from "../../app/.server/shopify/order-documents";
import { adaptBulkOrder, withKnownFulfillmentLines } from "../../app/.server/orders/graphql-order.adapter";
import { statusSkeleton } from "../../app/.server/orders/order-tracking";
import { mapOrder } from "../../app/.server/mapping/order.mapper";
import { shopifyOrderSchema } from "../../app/.server/mapping/order.schemas";
import { mapContext, orderSettings } from "../../app/.server/mapping/order.test-helpers";
import { generateProduct, productGidOf } from "./product-generator";
import { readCustomerOrder, readCustomerOrders } from "../../app/.server/storefront/order-reviews/customer-orders";
import { placeAccountOrder } from "./order-story";
import { STOREFRONT_CUSTOMERS } from "./storefront-customers";
import {
  OrderBook,
  orderBulkGroup,
  orderWebhookPayload,
  ordersModule,
  startSimulatedStore,
  type SimulatedStore,
} from "./index";

const NOW = new Date("2026-11-20T12:00:00Z");
const book = () => new OrderBook({ seed: 7, count: 60, productCount: 20, now: NOW });
const stores: SimulatedStore[] = [];
afterAll(async () => Promise.all(stores.map((s) => s.close())));

describe("simulated store: orders", () => {
  it("GIVEN the same seed and time THEN the same orders, oldest first, lines on the store's products", () => {
    const a = book().all();
    expect(book().all()).toEqual(a);
    expect(a.map((o) => o.createdAt)).toEqual([...a.map((o) => o.createdAt)].sort());
    const variants = new Set(
      Array.from({ length: 20 }, (_, i) => generateProduct(i, 7).variants.map((v) => v.id)).flat(),
    );
    for (const line of a.flatMap((o) => o.lines).filter((l) => !l.giftCard)) {
      expect(Array.from({ length: 20 }, (_, i) => productGidOf(i))).toContain(line.productId);
      expect(variants.has(line.variantId!)).toBe(true);
    }
  });

  it("GIVEN 60 generated orders THEN every state the sync meets is there", () => {
    const orders = book().all();
    const shipments = (o: (typeof orders)[number]) => o.fulfillments.map((f) => f.display).join(",");
    expect(orders.some((o) => o.test)).toBe(true);
    expect(orders.some((o) => o.cancelledAt && o.financialStatus === "REFUNDED")).toBe(true);
    expect(orders.some((o) => o.financialStatus === "PENDING")).toBe(true);
    expect(orders.some((o) => o.sourceName === "pos" && o.customer === null)).toBe(true);
    expect(orders.some((o) => o.lines.every((l) => l.giftCard))).toBe(true);
    expect(orders.some((o) => shipments(o) === "DELIVERED")).toBe(true);
    expect(orders.some((o) => shipments(o) === "IN_TRANSIT")).toBe(true);
    expect(orders.some((o) => o.fulfillments.length === 0 && o.financialStatus === "PAID" && !o.cancelledAt)).toBe(
      true,
    );
    expect(
      orders.some(
        (o) =>
          o.lines.some((l) => l.fulfilled > 0) &&
          o.lines.some((l) => !l.giftCard && l.fulfilled === 0 && l.removed === 0),
      ),
    ).toBe(true);
    // Older than a 60-day backfill reaches, and within it.
    const age = (o: (typeof orders)[number]) => (NOW.getTime() - Date.parse(o.createdAt)) / 86_400_000;
    expect(orders.some((o) => age(o) > 60)).toBe(true);
    expect(orders.filter((o) => age(o) < 60).length).toBeGreaterThan(40);
  });

  it("GIVEN any order THEN its webhook payload and its bulk node map to the same service body", () => {
    // Consent aside (webhooks carry none since 2025-01): opt-outs off on both sides.
    const ctx = mapContext({
      settings: orderSettings({ optOut: { email: "never", sms: "never", whatsapp: "never" } }),
      now: NOW,
    });
    for (const o of book().all()) {
      const rest = shopifyOrderSchema.parse(orderWebhookPayload(o));
      const tracking = { order: statusSkeleton(rest), fulfillments: {} };
      const adapted = adaptBulkOrder(orderBulkGroup(o), { utcOffset: "+00:00" });
      expect(
        mapOrder(withKnownFulfillmentLines(adapted.order, tracking), { ...ctx, consent: adapted.consent }),
        `order ${o.id}`,
      ).toEqual(mapOrder(rest, ctx));
    }
  });

  it("GIVEN changes THEN each returns the webhooks Shopify sends, with a newer updated_at", () => {
    const b = book();
    const placed = b.place({
      lines: [{ productIndex: 3, quantity: 2 }, { productIndex: 4 }],
      at: new Date("2026-11-20T12:30:00Z"),
    });
    expect(placed.webhooks.map((w) => w.topic)).toEqual(["orders/create", "orders/paid"]);
    expect(placed.webhooks[0]!.payload).toMatchObject({
      id: placed.order.id,
      financial_status: "paid",
      fulfillment_status: null,
      updated_at: "2026-11-20T12:30:00+00:00",
    });
    const [first, second] = placed.order.lines;
    const partial = b.fulfil(placed.order.id, { lineIds: [first!.id], at: new Date("2026-11-20T13:00:00Z") });
    expect(partial.webhooks.map((w) => w.topic)).toEqual([
      "fulfillments/create",
      "orders/partially_fulfilled",
      "orders/updated",
    ]);
    expect(partial.webhooks[0]!.payload).toMatchObject({
      order_id: placed.order.id,
      status: "success",
      shipment_status: "in_transit",
      line_items: [{ id: first!.id, quantity: 2 }],
    });
    const rest = b.fulfil(placed.order.id, { at: new Date("2026-11-20T14:00:00Z") });
    expect(rest.webhooks[1]).toMatchObject({ topic: "orders/fulfilled", payload: { fulfillment_status: "fulfilled" } });
    expect(rest.fulfillment.lines).toEqual([{ lineId: second!.id, quantity: 1 }]);
    const delivered = b.deliver(placed.order.id, { at: new Date("2026-11-21T09:00:00Z") });
    expect(delivered.webhooks[0]).toMatchObject({
      topic: "fulfillment_events/create",
      payload: { status: "delivered", fulfillment_id: rest.fulfillment.id, order_id: placed.order.id },
    });
    const pending = b.place({ financialStatus: "PENDING", at: new Date("2026-11-20T15:00:00Z") });
    expect(pending.webhooks.map((w) => w.topic)).toEqual(["orders/create"]);
    expect(b.pay(pending.order.id, new Date("2026-11-20T16:00:00Z")).webhooks[0]).toMatchObject({
      topic: "orders/paid",
      payload: { financial_status: "paid" },
    });
    const cancelled = b.cancel(pending.order.id, { at: new Date("2026-11-20T17:00:00Z") });
    expect(cancelled.webhooks[0]).toMatchObject({
      topic: "orders/cancelled",
      payload: { financial_status: "refunded", cancelled_at: "2026-11-20T17:00:00+00:00" },
    });
    expect(cancelled.order.lines.every((l) => l.quantity - l.removed === 0)).toBe(true);
    // Even at the same instant, a change moves updated_at forward.
    const same = new Date("2026-11-20T17:00:00Z");
    expect(
      Date.parse(b.update(pending.order.id, (o) => (o.phone = "+12125550100"), same).order.updatedAt),
    ).toBeGreaterThan(same.getTime());
    expect(b.get(pending.order.id)?.phone).toBe("+12125550100");
  });

  it("GIVEN the orders bulk root THEN a bulk query returns the orders created since its date, grouped", async () => {
    const b = book();
    const store = await startSimulatedStore({ products: 20, seed: 7, bulkDurationMs: 10, modules: [ordersModule(b)] });
    stores.push(store);
    const gql = createAdminGraphql({
      shop: store.shop,
      accessToken: store.accessToken,
      apiVersion: store.apiVersion,
      endpoint: store.graphqlEndpoint,
      logger: pino({ level: "silent" }),
    });
    const since = new Date(NOW.getTime() - 60 * 86_400_000);
    const id = await startBulkQuery(gql, bulkOrdersQuery({ createdSince: since }));
    const done = await waitForBulkOperation(gql, id, { intervalMs: 10, timeoutMs: 5_000 });
    const expected = b.all().filter((o) => Date.parse(o.createdAt) >= since.getTime());
    expect(done.objectCount).toBe(expected.reduce((n, o) => n + 1 + o.lines.length, 0));
    expect(done.rootObjectCount).toBe(expected.length);
    const names: unknown[] = [];
    for await (const g of readBulkJsonl(done.url)) {
      names.push(g.parent.name);
      expect(g.children.every((c) => c.__parentId === g.parent.id)).toBe(true);
    }
    expect(names).toEqual(expected.map((o) => `#${o.number}`));
  });
});

describe("simulated store: a storefront account's orders", () => {
  it("GIVEN orders of a storefront account THEN CustomerOrders pages them newest first, CustomerOrder answers each with its customer, and the buyer's consent is known", async () => {
    const [ana, ben] = STOREFRONT_CUSTOMERS as [
      (typeof STOREFRONT_CUSTOMERS)[number],
      (typeof STOREFRONT_CUSTOMERS)[number],
    ];
    const b = new OrderBook({ seed: 7, productCount: 20, now: NOW });
    const placed = Array.from(
      { length: 5 },
      (_, i) =>
        placeAccountOrder(b, ana, [i, i + 1], {
          delivered: i % 2 === 0,
          at: new Date(NOW.getTime() - (5 - i) * 86_400_000),
        })[0]!.order,
    );
    const bens = placeAccountOrder(b, ben, [3])[0]!.order;
    const store = await startSimulatedStore({ products: 20, seed: 7, modules: [ordersModule(b)] });
    stores.push(store);
    const gql = createAdminGraphql({
      shop: store.shop,
      accessToken: store.accessToken,
      apiVersion: store.apiVersion,
      endpoint: store.graphqlEndpoint,
      logger: pino({ level: "silent" }),
    });

    const first = await readCustomerOrders(gql, ana.id, { first: 3 });
    expect(first.orders.map((o) => o.id)).toEqual(
      placed
        .slice(2)
        .reverse()
        .map((o) => String(o.id)),
    );
    const rest = await readCustomerOrders(gql, ana.id, { first: 3, after: first.next });
    expect(rest).toMatchObject({
      next: null,
      orders: placed
        .slice(0, 2)
        .reverse()
        .map((o) => ({ id: String(o.id) })),
    });
    expect(first.orders[2]).toMatchObject({
      name: `#${placed[2]!.number}`,
      fulfilled: true,
      customerId: ana.id,
      lines: [
        { productId: String(placed[2]!.lines[0]!.productId).replace(/\D/g, ""), handle: generateProduct(2, 7).handle },
        { handle: generateProduct(3, 7).handle },
      ],
    });
    expect(first.orders[1]!.fulfilled).toBe(false);

    expect(await readCustomerOrder(gql, ben.id, String(bens.id))).toMatchObject({
      id: String(bens.id),
      customerId: ben.id,
    });
    expect(await readCustomerOrder(gql, ana.id, String(bens.id))).toBeNull();
    expect(await readCustomerOrders(gql, "7003")).toEqual({ orders: [], next: null });
    // An order of many lines: a history page carries its first few, the order itself all of them.
    const big = placeAccountOrder(
      b,
      ben,
      Array.from({ length: 12 }, (_, k) => k),
    )[0]!.order;
    const [bigFirst] = (await readCustomerOrders(gql, ben.id)).orders;
    expect(bigFirst).toMatchObject({ id: String(big.id), moreLines: true });
    expect(bigFirst!.lines).toHaveLength(HISTORY_LINES_PER_ORDER);
    const whole = await readCustomerOrder(gql, ben.id, String(big.id));
    expect(whole).toMatchObject({ moreLines: false });
    expect(whole!.lines).toHaveLength(12);
    expect(b.customerConsent(Number(ana.id))).toMatchObject({
      email: ana.email,
      channels: { email: { state: "SUBSCRIBED" } },
    });
  });
});
