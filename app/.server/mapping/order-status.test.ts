import { describe, expect, it } from "vitest";
import {
  DELIVERED_BY_AGE,
  ORDER_STATUS_ROWS,
  deliveryDueAt,
  deriveOrderStatus,
  paymentStatus,
  type FulfillmentEvents,
  type StatusContext,
} from "./order-status";
import type { ShopifyFulfillment, ShopifyOrder } from "./order.schemas";
import { NOW, loadOrder } from "./order.test-helpers";

const rowsHit = new Set<string>();

function derive(order: ShopifyOrder, ctx: Partial<StatusContext> = {}) {
  const result = deriveOrderStatus(order, { settings: { deliveredAfterDays: null }, now: NOW, ...ctx });
  rowsHit.add(result.rule);
  return result;
}

const row = (i: number) => ORDER_STATUS_ROWS[i]!;

/** A fulfillment of the paid web order's only line item, as Shopify sends it. */
function shipment(order: ShopifyOrder, fields: Partial<ShopifyFulfillment>): ShopifyOrder {
  const line = order.line_items![0]!;
  line.fulfillment_status = "fulfilled";
  line.fulfillable_quantity = 0;
  order.fulfillment_status = "fulfilled";
  order.fulfillments = [
    {
      id: 5123456919999,
      admin_graphql_api_id: "gid://shopify/Fulfillment/5123456919999",
      status: "success",
      shipment_status: null,
      created_at: "2026-11-01T10:00:00-05:00",
      updated_at: "2026-11-01T10:00:00-05:00",
      tracking_company: "UPS",
      line_items: [{ id: line.id, quantity: 1 }],
      ...fields,
    },
  ];
  return order;
}

describe("order status table", () => {
  it("has an unconditional last row, so every order gets a status", () => {
    expect(ORDER_STATUS_ROWS.at(-1)!.predicate({} as never)).toBe(true);
  });

  describe(`row 1: ${row(0).when} → ${row(0).status}`, () => {
    it("cancels a cancelled order", () => {
      const r = derive(loadOrder("cancelled-refunded"));
      expect(r.status).toBe("cancelled");
      expect(r.rule).toBe(row(0).when);
    });
    it("cancels even an order that had been delivered", () => {
      const order = loadOrder("delivered");
      order.cancelled_at = "2026-11-06T08:00:00+01:00";
      expect(derive(order).status).toBe("cancelled");
    });
  });

  describe(`row 2: ${row(1).when} → ${row(1).status}`, () => {
    it.each(["refunded", "voided"])("cancels a %s order that never shipped", (financial) => {
      const order = loadOrder("paid-web-customer");
      order.financial_status = financial;
      const r = derive(order);
      expect(r).toMatchObject({ status: "cancelled", rule: row(1).when });
    });
    it("keeps a refunded order that was delivered as delivered (the buyer had the goods)", () => {
      const order = loadOrder("delivered");
      order.financial_status = "refunded";
      expect(derive(order).status).toBe("delivered");
    });
  });

  describe(`row 3: ${row(2).when} → ${row(2).status}`, () => {
    it("cancels an order whose every line was removed by an edit", () => {
      const order = loadOrder("paid-web-customer");
      order.financial_status = "partially_refunded";
      order.line_items![0]!.current_quantity = 0;
      expect(derive(order)).toMatchObject({ status: "cancelled", rule: row(2).when });
    });
    it("cancels an order whose every line was refunded in full", () => {
      const order = loadOrder("paid-web-customer");
      order.financial_status = "partially_refunded"; // shipping was kept, say
      order.refunds = [{ id: 1, refund_line_items: [{ line_item_id: order.line_items![0]!.id, quantity: 1 }] }];
      expect(derive(order)).toMatchObject({ status: "cancelled", rule: row(2).when });
    });
  });

  describe(`row 4: ${row(3).when} → ${row(3).status}`, () => {
    it("delivers when tracking says delivered, dated by the fulfillment's last update", () => {
      const r = derive(loadOrder("delivered"));
      expect(r).toMatchObject({ status: "delivered", rule: row(3).when, deliveredDate: "2026-11-04" });
    });
    it("dates the delivery in the shop's offset, not in UTC", () => {
      const order = shipment(loadOrder("paid-web-customer"), {
        shipment_status: "delivered",
        updated_at: "2026-11-04T21:30:00-05:00", // 02:30 UTC on the 5th
      });
      expect(derive(order).deliveredDate).toBe("2026-11-04");
    });
    it("delivers on a delivered fulfillment event (GraphQL form: GID key, upper case)", () => {
      const order = shipment(loadOrder("paid-web-customer"), { shipment_status: "in_transit" });
      const events: FulfillmentEvents = {
        "gid://shopify/Fulfillment/5123456919999": [
          { status: "IN_TRANSIT", happenedAt: "2026-11-02T08:00:00Z" },
          { status: "DELIVERED", happenedAt: "2026-11-03T16:45:00Z" },
        ],
      };
      expect(derive(order, { fulfillmentEvents: events })).toMatchObject({
        status: "delivered",
        rule: row(3).when,
        deliveredDate: "2026-11-03",
      });
    });
    it("is not delivered while another fulfillment is still in transit", () => {
      expect(derive(loadOrder("partially-fulfilled")).status).toBe("shipped");
    });
    it("is not delivered while a shippable item is unfulfilled", () => {
      const order = loadOrder("partially-fulfilled");
      order.fulfillments![1]!.shipment_status = "delivered";
      expect(derive(order).status).toBe("shipped");
      // ...and is once that item is removed from the order.
      const rain = order.line_items![2]!;
      rain.current_quantity = 0;
      rain.fulfillable_quantity = 0;
      expect(derive(order)).toMatchObject({ status: "delivered", deliveredDate: "2026-11-17" });
    });
    it("ignores cancelled fulfillments", () => {
      const order = loadOrder("delivered");
      order.fulfillments!.push({
        ...order.fulfillments![0]!,
        id: 5123456999999,
        status: "cancelled",
        shipment_status: null,
      });
      expect(derive(order).status).toBe("delivered");
    });
  });

  describe(`row 5: ${row(4).when} → ${row(4).status}`, () => {
    it("delivers a fulfilled POS sale on the day of the sale", () => {
      const r = derive(loadOrder("pos-guest"));
      expect(r).toMatchObject({ status: "delivered", rule: row(4).when, deliveredDate: "2026-11-19" });
    });
    it("delivers a local pickup once it is fulfilled (picked up)", () => {
      const order = shipment(loadOrder("paid-web-customer"), { created_at: "2026-11-16T17:05:00+01:00" });
      order.shipping_lines = [
        { code: "Pickup", title: "Pickup at Main Street", source: "shopify", delivery_category: "pick-up" },
      ];
      expect(derive(order)).toMatchObject({ status: "delivered", rule: row(4).when, deliveredDate: "2026-11-16" });
    });
    it("is only shipped while the pickup waits for the buyer", () => {
      const order = shipment(loadOrder("paid-web-customer"), { status: "open", shipment_status: "ready_for_pickup" });
      order.shipping_lines = [
        { code: "Pickup", title: "Pickup at Main Street", source: "shopify", delivery_category: null },
      ];
      expect(derive(order).status).toBe("shipped");
    });
    it("does not apply to a POS sale shipped to the buyer", () => {
      const order = shipment(loadOrder("pos-guest"), { shipment_status: "in_transit" });
      order.shipping_lines = [{ code: "Royal Mail", title: "Royal Mail Tracked 48", source: "shopify" }];
      expect(derive(order).status).toBe("shipped");
    });
  });

  describe(`row 6: ${DELIVERED_BY_AGE.when} → ${DELIVERED_BY_AGE.status}`, () => {
    const shippedNov1 = () => shipment(loadOrder("paid-web-customer"), { shipment_status: "in_transit" });
    it("delivers N days after the latest shipment, dated shipment day + N", () => {
      const r = derive(shippedNov1(), { settings: { deliveredAfterDays: 14 } });
      expect(r).toMatchObject({ status: "delivered", rule: DELIVERED_BY_AGE.when, deliveredDate: "2026-11-15" });
    });
    it("stays shipped before N days have passed", () => {
      expect(derive(shippedNov1(), { settings: { deliveredAfterDays: 30 } }).status).toBe("shipped");
    });
    it("stays shipped when the setting is off", () => {
      expect(derive(shippedNov1()).status).toBe("shipped");
    });
    it("does not deliver a partially shipped order", () => {
      const r = derive(loadOrder("partially-fulfilled"), { settings: { deliveredAfterDays: 1 } });
      expect(r.status).toBe("shipped");
    });
  });

  describe(`row 7: ${row(6).when} → ${row(6).status}`, () => {
    it("ships when one of several fulfillments left", () => {
      const r = derive(loadOrder("partially-fulfilled"));
      expect(r).toMatchObject({ status: "shipped", rule: row(6).when, estimatedDeliveryDate: "2026-11-21" });
    });
    it("takes the estimate from the latest fulfillment event when there is one", () => {
      const order = shipment(loadOrder("paid-web-customer"), { shipment_status: "in_transit" });
      const r = derive(order, {
        fulfillmentEvents: {
          "5123456919999": [
            { status: "in_transit", happenedAt: "2026-11-02T08:00:00Z", estimatedDeliveryAt: "2026-11-05T18:00:00Z" },
            { status: "delayed", happenedAt: "2026-11-04T08:00:00Z", estimatedDeliveryAt: "2026-11-23T18:00:00Z" },
          ],
        },
      });
      expect(r).toMatchObject({ status: "shipped", estimatedDeliveryDate: "2026-11-23" });
    });
    it("ships an open fulfillment whose tracking is in transit", () => {
      const order = shipment(loadOrder("paid-web-customer"), { status: "open", shipment_status: "in_transit" });
      expect(derive(order).status).toBe("shipped");
    });
    it("does not ship on a pending fulfillment (a fulfillment service has not accepted it)", () => {
      const order = shipment(loadOrder("paid-web-customer"), { status: "pending" });
      expect(derive(order).status).toBe("paid");
    });
  });

  describe(`row 8: ${row(7).when} → ${row(7).status}`, () => {
    it.each(["paid", "partially_paid", "partially_refunded"])("%s → paid", (financial) => {
      const order = loadOrder("paid-web-customer");
      order.financial_status = financial;
      expect(derive(order)).toMatchObject({ status: "paid", rule: row(7).when });
    });
  });

  describe(`row 9: ${row(8).when} → ${row(8).status}`, () => {
    it("authorized → authorized", () => {
      const order = loadOrder("paid-web-customer");
      order.financial_status = "authorized";
      expect(derive(order)).toMatchObject({ status: "authorized", rule: row(8).when });
    });
  });

  describe(`row 10: ${row(9).when} → ${row(9).status}`, () => {
    it.each(["pending", "expired", null])("%s → created", (financial) => {
      const order = loadOrder("draft-order");
      order.financial_status = financial;
      expect(derive(order)).toMatchObject({ status: "created", rule: row(9).when });
    });
  });

  it("every row of the table is proven by a test above", () => {
    expect([...rowsHit].sort()).toEqual(ORDER_STATUS_ROWS.map((r) => r.when).sort());
  });
});

describe("paymentStatus (the status of items not fulfilled yet)", () => {
  it.each([
    ["paid", "paid"],
    ["partially_refunded", "paid"],
    ["authorized", "authorized"],
    ["pending", "created"],
  ] as const)("%s → %s, whatever the fulfillments", (financial, expected) => {
    const order = loadOrder("partially-fulfilled");
    order.financial_status = financial;
    expect(paymentStatus(order)).toBe(expected);
  });
});

describe("deliveryDueAt", () => {
  const settings = { deliveredAfterDays: 14 };
  const shipped = () => shipment(loadOrder("paid-web-customer"), { shipment_status: "in_transit" });

  it("is the latest shipment + N days for a fully shipped order without delivery", () => {
    expect(deliveryDueAt(shipped(), settings)).toEqual(new Date("2026-11-15T15:00:00.000Z"));
  });
  it("uses the latest of several shipments", () => {
    const order = loadOrder("partially-fulfilled");
    order.line_items![2]!.fulfillable_quantity = 0;
    order.fulfillment_status = "fulfilled";
    order.fulfillments![0]!.shipment_status = "in_transit";
    // The second parcel left 2026-11-16T17:40-08:00 = 2026-11-17T01:40Z.
    expect(deliveryDueAt(order, settings)).toEqual(new Date("2026-12-01T01:40:00.000Z"));
  });
  it("may be in the past: the order is then delivered already", () => {
    const due = deliveryDueAt(shipped(), { deliveredAfterDays: 1 })!;
    expect(due.getTime()).toBeLessThan(NOW.getTime());
  });
  it("is null when the setting is off", () => {
    expect(deliveryDueAt(shipped(), { deliveredAfterDays: null })).toBeNull();
  });
  it("is null when tracking already says delivered", () => {
    expect(deliveryDueAt(loadOrder("delivered"), settings)).toBeNull();
    const events = { "5123456919999": [{ status: "delivered", happenedAt: "2026-11-03T10:00:00Z" }] };
    expect(deliveryDueAt(shipped(), settings, events)).toBeNull();
  });
  it("is null when the order is not fully shipped, cancelled, or handed over in store", () => {
    expect(deliveryDueAt(loadOrder("partially-fulfilled"), settings)).toBeNull();
    expect(deliveryDueAt(loadOrder("paid-web-customer"), settings)).toBeNull();
    expect(deliveryDueAt(loadOrder("cancelled-refunded"), settings)).toBeNull();
    expect(deliveryDueAt(loadOrder("pos-guest"), settings)).toBeNull();
  });
});
