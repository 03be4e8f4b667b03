import { describe, expect, it } from "vitest";
import { deliveryDueAt, deriveOrderStatus } from "../mapping/order-status";
import { loadOrder, NOW, type OrderFixture } from "../mapping/order.test-helpers";
import {
  emptyTracking,
  fulfillmentEventWebhookSchema,
  fulfillmentWebhookSchema,
  parseTracking,
  recordEvent,
  recordFulfillment,
  serializeTracking,
  statusSkeleton,
  statusUpdateFor,
  withFulfillments,
  type OrderTracking,
} from "./order-tracking";

const FIXTURES: OrderFixture[] = [
  "paid-web-customer",
  "pos-guest",
  "draft-order",
  "partially-fulfilled",
  "delivered",
  "cancelled-refunded",
  "test-order",
  "gift-card-only",
  "custom-and-removed",
];
const settings = { deliveredAfterDays: 5 };

const fulfillmentPayload = (over: Record<string, unknown> = {}) =>
  fulfillmentWebhookSchema.parse({
    id: 5123456700001,
    order_id: 5923018113099,
    status: "success",
    shipment_status: null,
    created_at: "2026-11-19T10:00:00-05:00",
    updated_at: "2026-11-19T10:00:00-05:00",
    tracking_number: "1Z999AA10123456784",
    email: "avery.johnson@example.com",
    destination: { first_name: "Avery", last_name: "Johnson", phone: "+1 212-555-0134", address1: "350 Fifth Avenue" },
    line_items: [{ id: 14783254233163, quantity: 1, sku: "TR2-BLU-42", fulfillable_quantity: 0 }],
    ...over,
  });

const eventPayload = (id: number, status: string, at: string) =>
  fulfillmentEventWebhookSchema.parse({
    id,
    fulfillment_id: 5123456700001,
    order_id: 5923018113099,
    status,
    happened_at: at,
    city: "New York",
    zip: "10118",
  });

/** Tracking of the paid fixture as the order sync leaves it. */
const trackingOf = (fixture: OrderFixture): OrderTracking => ({
  ...emptyTracking(),
  order: statusSkeleton(loadOrder(fixture)),
  serviceOrderId: "x",
});

describe("the status skeleton of an order", () => {
  it.each(FIXTURES)(
    "GIVEN %s THEN its skeleton derives the same status, date and due time as the whole order",
    (name) => {
      const order = loadOrder(name);
      const skeleton = statusSkeleton(order);
      const ctx = { settings, now: NOW };
      const whole = deriveOrderStatus(order, ctx);
      const part = deriveOrderStatus(skeleton, ctx);
      expect([part.status, part.rule, part.deliveredDate, part.estimatedDeliveryDate]).toEqual([
        whole.status,
        whole.rule,
        whole.deliveredDate,
        whole.estimatedDeliveryDate,
      ]);
      expect(deliveryDueAt(skeleton, settings)).toEqual(deliveryDueAt(order, settings));
    },
  );

  it.each(FIXTURES)("GIVEN %s THEN no buyer contact data is kept", (name) => {
    const order = loadOrder(name);
    const text = JSON.stringify(statusSkeleton(order));
    const contacts = [
      order.email,
      order.contact_email,
      order.phone,
      order.customer?.email,
      order.customer?.first_name,
      order.customer?.last_name,
    ]
      .concat(
        [order.shipping_address, order.billing_address].flatMap((a) => [
          a?.first_name,
          a?.last_name,
          a?.phone,
          a?.name,
        ]),
      )
      .filter((v): v is string => typeof v === "string" && v.trim() !== "");
    for (const c of contacts) expect(text).not.toContain(c);
    expect(text).not.toMatch(/address1|"email"|"phone"|"customer"/);
  });
});

describe("the tracking column", () => {
  it("GIVEN tracking written THEN it reads back whole, and the mapper reading the raw column sees only events", () => {
    let t = recordFulfillment(trackingOf("paid-web-customer"), fulfillmentPayload());
    t = recordEvent(t, eventPayload(1, "delivered", "2026-11-20T21:05:00-05:00"), NOW);
    const text = serializeTracking(t);
    expect(parseTracking(text)).toEqual(t);

    const order = withFulfillments(t.order!, t.fulfillments);
    const viaRaw = deriveOrderStatus(order, { settings, now: NOW, fulfillmentEvents: JSON.parse(text) });
    const viaEvents = deriveOrderStatus(order, { settings, now: NOW, fulfillmentEvents: t.events });
    expect(viaRaw.status).toBe("delivered");
    expect(viaRaw.deliveredDate).toBe(viaEvents.deliveredDate);
  });

  it("GIVEN a corrupt or foreign value THEN only that part is lost", () => {
    expect(parseTracking("not json")).toEqual(emptyTracking());
    expect(parseTracking(null)).toEqual(emptyTracking());
    const t = parseTracking(
      JSON.stringify({
        "51": [{ status: "delivered", happenedAt: "2026-11-20T10:00:00Z" }, { nonsense: 1 }],
        $order: 42,
        $serviceOrderId: "#1001",
      }),
    );
    expect(t).toEqual({
      ...emptyTracking(),
      events: { "51": [{ status: "delivered", happenedAt: "2026-11-20T10:00:00Z" }] },
      serviceOrderId: "#1001",
    });
  });

  it("GIVEN the same column text read twice THEN one reading, frozen: no caller can change what the next one reads", () => {
    const text = serializeTracking({
      ...trackingOf("paid-web-customer"),
      events: { "52": [{ status: "in_transit", happenedAt: "2026-11-20T10:00:00Z" }] },
      newsAt: "2026-11-20T10:00:01.000Z",
    });
    const first = parseTracking(text);
    expect(parseTracking(text)).toBe(first);
    expect(first.newsAt).toBe("2026-11-20T10:00:01.000Z");
    expect(() => first.events["52"]!.push({ status: "delivered", happenedAt: "2026-11-21T10:00:00Z" })).toThrow(
      TypeError,
    );
    expect(() => ((first.order!.line_items as unknown[])[0] = null)).toThrow(TypeError);
    // What callers do instead: a new tracking from it.
    expect(
      recordEvent(
        first,
        { id: 9, fulfillment_id: 52, order_id: 1, status: "delivered", happened_at: "2026-11-21T10:00:00Z" },
        NOW,
      ).events["52"],
    ).toHaveLength(2);
  });
});

describe("fulfillment webhooks", () => {
  it("GIVEN a fulfillment THEN only ids, statuses, times and quantities are kept", () => {
    const t = recordFulfillment(emptyTracking(), fulfillmentPayload());
    expect(t.fulfillments).toEqual({
      "5123456700001": {
        id: "5123456700001",
        status: "success",
        created_at: "2026-11-19T10:00:00-05:00",
        updated_at: "2026-11-19T10:00:00-05:00",
        line_items: [{ id: "14783254233163", quantity: 1 }],
      },
    });
  });

  it("GIVEN an older state of a known fulfillment THEN it is ignored", () => {
    const newer = recordFulfillment(
      emptyTracking(),
      fulfillmentPayload({ shipment_status: "delivered", updated_at: "2026-11-21T09:00:00-05:00" }),
    );
    expect(
      recordFulfillment(
        newer,
        fulfillmentPayload({ shipment_status: "in_transit", updated_at: "2026-11-20T09:00:00-05:00" }),
      ),
    ).toBe(newer);
  });

  it("GIVEN the same event twice and events out of order THEN each is kept once, oldest first", () => {
    let t = recordEvent(emptyTracking(), eventPayload(2, "delivered", "2026-11-21T10:00:00-05:00"), NOW);
    t = recordEvent(t, eventPayload(1, "in_transit", "2026-11-20T10:00:00-05:00"), NOW);
    t = recordEvent(t, eventPayload(2, "delivered", "2026-11-21T10:00:00-05:00"), NOW);
    expect(t.events["5123456700001"]!.map((e) => [e.id, e.status])).toEqual([
      ["1", "in_transit"],
      ["2", "delivered"],
    ]);
  });

  it("GIVEN a fulfillment the order payload predates THEN it is added and its units count as fulfilled", () => {
    const order = loadOrder("paid-web-customer");
    const merged = withFulfillments(order, recordFulfillment(emptyTracking(), fulfillmentPayload()).fulfillments);
    expect(merged.fulfillments).toHaveLength(1);
    expect(merged.line_items![0]!.fulfillable_quantity).toBe(0);
    expect(deriveOrderStatus(merged, { settings: { deliveredAfterDays: null }, now: NOW }).status).toBe("shipped");

    const cancelled = withFulfillments(
      order,
      recordFulfillment(emptyTracking(), fulfillmentPayload({ status: "cancelled" })).fulfillments,
    );
    expect(cancelled.line_items![0]!.fulfillable_quantity).toBe(1);

    const trimmed = withFulfillments(
      { ...order, fulfillments: undefined },
      recordFulfillment(emptyTracking(), fulfillmentPayload()).fulfillments,
    );
    expect(trimmed.fulfillments).toHaveLength(1);
    expect(trimmed.line_items![0]!.fulfillable_quantity).toBe(1);
  });

  it("GIVEN a fulfillment the payload has in an older state THEN the newer one replaces it, keeping its line items", () => {
    const order = loadOrder("partially-fulfilled");
    const inTransit = order.fulfillments!.find((f) => f.shipment_status === "in_transit")!;
    const update = fulfillmentPayload({
      id: inTransit.id,
      shipment_status: "delivered",
      updated_at: "2026-12-01T10:00:00-08:00",
      line_items: null,
    });
    const merged = withFulfillments(order, recordFulfillment(emptyTracking(), update).fulfillments);
    const replaced = merged.fulfillments!.find((f) => f.id === String(inTransit.id))!;
    expect(replaced.shipment_status).toBe("delivered");
    expect(replaced.line_items).toEqual(inTransit.line_items);
    const stale = fulfillmentPayload({
      id: inTransit.id,
      shipment_status: "in_transit",
      updated_at: "2020-01-01T00:00:00Z",
    });
    expect(withFulfillments(order, recordFulfillment(emptyTracking(), stale).fulfillments).fulfillments).toEqual(
      order.fulfillments,
    );
  });
});

describe("status updates without the order", () => {
  const off = { deliveredAfterDays: null };

  it("GIVEN a paid order and a shipped fulfillment THEN shipped; once it is delivered THEN delivered on that day", () => {
    let t = recordFulfillment(trackingOf("paid-web-customer"), fulfillmentPayload());
    expect(statusUpdateFor("paid", t, off, NOW)).toEqual({ status: "shipped" });
    expect(statusUpdateFor("shipped", t, off, NOW)).toBeNull();
    t = recordEvent(t, eventPayload(9, "delivered", "2026-11-20T21:05:00-05:00"), NOW);
    expect(statusUpdateFor("shipped", t, off, NOW)).toEqual({ status: "delivered", deliveredDate: "2026-11-20" });
  });

  it("GIVEN one parcel delivered while other items wait to ship THEN not delivered", () => {
    const t = trackingOf("partially-fulfilled");
    const delivered = t.order!.fulfillments!.find((f) => f.shipment_status === "delivered")!;
    expect(delivered).toBeDefined();
    expect(statusUpdateFor("shipped", t, off, NOW)).toBeNull();
  });

  it("GIVEN an order already delivered or cancelled, never sent, or never seen THEN nothing", () => {
    const t = recordEvent(
      recordFulfillment(trackingOf("paid-web-customer"), fulfillmentPayload()),
      eventPayload(9, "delivered", "2026-11-20T21:05:00-05:00"),
      NOW,
    );
    expect(statusUpdateFor("delivered", t, off, NOW)).toBeNull();
    expect(statusUpdateFor("cancelled", t, off, NOW)).toBeNull();
    expect(statusUpdateFor(null, t, off, NOW)).toBeNull();
    expect(statusUpdateFor("paid", { ...t, order: null }, off, NOW)).toBeNull();
  });

  it("GIVEN deliveredAfterDays THEN a shipped order is delivered at shipping + N days, not before", () => {
    const t = recordFulfillment(trackingOf("paid-web-customer"), fulfillmentPayload());
    const days = { deliveredAfterDays: 3 };
    expect(statusUpdateFor("shipped", t, days, new Date("2026-11-22T14:59:59Z"))).toBeNull();
    expect(statusUpdateFor("shipped", t, days, new Date("2026-11-22T15:00:00Z"))).toEqual({
      status: "delivered",
      deliveredDate: "2026-11-22",
    });
  });
});
