import { createReadStream } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { readBulkJsonl, type BulkGroup } from "../shopify/bulk-operations";
import { mapOrder, orderFingerprint, isExcluded, type OrderMapContext } from "../mapping/order.mapper";
import { shopifyOrderSchema } from "../mapping/order.schemas";
import { loadOrder, mapContext, type OrderFixture } from "../mapping/order.test-helpers";
import { statusSkeleton } from "./order-tracking";
import {
  adaptBulkOrder,
  OrderNodeError,
  trackedUtcOffset,
  withKnownFulfillmentLines,
  type AdaptedOrder,
} from "./graphql-order.adapter";
import { restTime, utcOffsetOf } from "./graphql-to-rest";

// The bulk JSONL fixture holds the nine webhook fixtures of test/fixtures/orders as a bulk
// operation writes them (UTC timestamps, GIDs, enums, line items as child lines). The adapter must
// give the mapper what the webhook gave it: the same body, hence the same fingerprint, so that a
// reconciliation does not resend what the live path sent.

const JSONL = fileURLToPath(new URL("../../../test/fixtures/orders/bulk-orders.jsonl", import.meta.url));

const BY_NAME: Record<string, OrderFixture> = {
  "#1001": "paid-web-customer",
  "#1002": "pos-guest",
  "#1003": "draft-order",
  "#1004": "partially-fulfilled",
  "#1005": "delivered",
  "#1006": "cancelled-refunded",
  "#1007": "test-order",
  "#1008": "gift-card-only",
  "#1009": "custom-and-removed",
};

let groups: BulkGroup[];
beforeAll(async () => {
  groups = [];
  for await (const g of readBulkJsonl(createReadStream(JSONL))) groups.push(g);
});

const group = (name: string) => groups.find((g) => g.parent.name === name)!;

/** What the live path knows after the order's webhook: its offset and its fulfillments' lines. */
function asReconciliation(name: string): { adapted: AdaptedOrder; rest: ReturnType<typeof loadOrder> } {
  const rest = loadOrder(BY_NAME[name]!);
  const tracking = { order: statusSkeleton(rest), fulfillments: {} };
  const adapted = adaptBulkOrder(group(name), { utcOffset: trackedUtcOffset(tracking) });
  return { adapted: { ...adapted, order: withKnownFulfillmentLines(adapted.order, tracking) }, rest };
}

describe("bulk order → webhook order", () => {
  it("GIVEN the bulk file of the nine fixtures THEN nine orders, each with its line items", () => {
    expect(groups.map((g) => g.parent.name)).toEqual(Object.keys(BY_NAME));
    for (const g of groups) {
      const { order } = adaptBulkOrder(g);
      expect(order.line_items?.length).toBe(loadOrder(BY_NAME[String(g.parent.name)]!).line_items?.length);
      expect(() => shopifyOrderSchema.parse(order)).not.toThrow();
    }
  });

  it.each(Object.keys(BY_NAME))(
    "GIVEN order %s as the webhook sent it and as the bulk query reads it THEN the mapper makes the same body",
    (name) => {
      const { adapted, rest } = asReconciliation(name);
      // Webhook payloads since 2025-01 carry no consent; the delivered fixture is an older one that does.
      const live = mapOrder(rest, mapContext());
      const reconciled = mapOrder(adapted.order, mapContext({ consent: adapted.consent }));
      expect(reconciled).toEqual(live);
      if (!isExcluded(live) && !isExcluded(reconciled))
        expect(orderFingerprint(reconciled)).toBe(orderFingerprint(live));
    },
  );

  it("GIVEN a partially fulfilled order THEN ids, statuses and quantities read as REST writes them", () => {
    const { order, orderId } = adaptBulkOrder(group("#1004"));
    expect(orderId).toBe("5923018211403");
    expect(order).toMatchObject({
      id: 5923018211403,
      admin_graphql_api_id: "gid://shopify/Order/5923018211403",
      name: "#1004",
      order_number: 1004,
      financial_status: "paid",
      fulfillment_status: "partial",
      test: false,
      source_name: "web",
      created_at: "2026-11-10T16:01:09Z",
      customer: {
        id: 7412345744437,
        first_name: "Jordan",
        last_name: "Lee",
        email: "jordan.lee@example.com",
        phone: "+14155550172",
        default_address: { country_code: "US" },
      },
      shipping_address: { phone: "4155550172", country_code: "US" },
      shipping_lines: [
        {
          code: "UPS Ground",
          title: "UPS® Ground",
          source: "ups_shipping",
          carrier_identifier: "ups_carrier_id",
          delivery_category: null,
        },
      ],
    });
    expect(
      order.line_items?.map((l) => [
        l.id,
        l.product_id,
        l.variant_id,
        l.sku,
        l.variant_title,
        l.vendor,
        l.quantity,
        l.current_quantity,
        l.fulfillable_quantity,
        l.fulfillment_status,
      ]),
    ).toEqual([
      [14783254331467, 8712345776203, 45012345777227, "TR2-BLK-44", "Black / 44", "Northpeak", 1, 1, 0, "fulfilled"],
      [14783254364235, 8712345808971, 45012345809995, "SOCK-M", "M", "Footloop", 1, 1, 0, "fulfilled"],
      [14783254397003, 8712345841739, 45012345842763, "RS-OLV-M", "Olive / M", "Northpeak", 1, 1, 1, null],
    ]);
    expect(order.fulfillments?.map((f) => [f.id, f.status, f.shipment_status, f.estimated_delivery_at])).toEqual([
      [5123456821780, "success", "delivered", null],
      [5123456854548, "success", "in_transit", "2026-11-22T04:00:00Z"],
    ]);
    // Two fulfillments in different states: which line went in which is not in a bulk result.
    expect(order.fulfillments?.every((f) => f.line_items === undefined)).toBe(true);
    // No consent in the REST shape: it goes to the mapper's context.
    expect(order.customer).not.toHaveProperty("email_marketing_consent");
  });

  it("GIVEN two fulfillments and nothing recorded about them THEN the order status is right and every fulfilled line counts as shipped", () => {
    const rest = loadOrder("partially-fulfilled");
    const adapted = adaptBulkOrder(group("#1004"), { utcOffset: "-08:00" });
    const live = mapOrder(rest, mapContext());
    const reconciled = mapOrder(adapted.order, mapContext({ consent: adapted.consent }));
    expect(isExcluded(reconciled) || reconciled.status).toBe("shipped");
    expect(isExcluded(live) || live.items.map((i) => i.status)).toEqual(["delivered", "shipped", "paid"]);
    expect(isExcluded(reconciled) || reconciled.items.map((i) => i.status)).toEqual(["shipped", "shipped", "paid"]);
  });

  it("GIVEN one active fulfillment THEN it carries every line with fulfilled units", () => {
    const { order } = adaptBulkOrder(group("#1005"));
    expect(order.fulfillments?.[0]).toMatchObject({
      id: 5123456887316,
      shipment_status: "delivered",
      line_items: [{ id: 14783254429771, quantity: 1 }],
    });
    const pos = adaptBulkOrder(group("#1002")).order;
    expect(pos.fulfillments?.[0]).toMatchObject({
      status: "success",
      shipment_status: null,
      line_items: [{ id: 14783254265931, quantity: 1 }],
    });
  });

  it("GIVEN GraphQL consent THEN it is read for the mapper (email and SMS), lowercase", () => {
    // Consent is on the default e-mail address and phone number: no phone, no SMS consent.
    expect(adaptBulkOrder(group("#1005")).consent).toMatchObject({ email: "subscribed", sms: undefined });
    expect(adaptBulkOrder(group("#1004")).consent).toMatchObject({ email: "not_subscribed", sms: "not_subscribed" });
    expect(adaptBulkOrder(group("#1002")).consent).toMatchObject({ email: undefined, sms: undefined });
    const optOuts = (ctx: Partial<OrderMapContext>) => {
      const m = mapOrder(adaptBulkOrder(group("#1005")).order, mapContext(ctx));
      return isExcluded(m) ? m : [m.optOutEmail, m.optOutSMS, m.optOutWhatsApp];
    };
    expect(optOuts({ consent: adaptBulkOrder(group("#1005")).consent })).toEqual([false, true, true]);
    // Nothing known: the default policy sends e-mail and needs consent for SMS and WhatsApp.
    expect(optOuts({})).toEqual([false, true, true]);
  });

  it("GIVEN custom attributes and a custom line THEN properties and null product ids as in REST", () => {
    const { order } = adaptBulkOrder(group("#1009"));
    expect(order.line_items?.[0]?.properties).toEqual([{ name: "Seller", value: "Atelier Sol Madrid" }]);
    expect(order.line_items?.[1]).toMatchObject({
      product_id: null,
      variant_id: null,
      product_exists: false,
      requires_shipping: false,
    });
    expect(order.line_items?.[2]).toMatchObject({
      current_quantity: 0,
      fulfillable_quantity: 0,
      fulfillment_status: null,
    });
  });

  it("GIVEN a node from a regular query THEN fulfillment lines and refunds it carries are read", () => {
    const g = group("#1004");
    const parent = structuredClone(g.parent) as Record<string, unknown> & { fulfillments: Record<string, unknown>[] };
    parent.fulfillments[0]!.fulfillmentLineItems = {
      nodes: [{ lineItem: { id: "gid://shopify/LineItem/14783254331467" }, quantity: 1 }],
    };
    parent.fulfillments[1]!.fulfillmentLineItems = {
      edges: [{ node: { lineItem: { id: "gid://shopify/LineItem/14783254364235" }, quantity: 1 } }],
    };
    parent.refunds = [
      {
        id: "gid://shopify/Refund/1012345678901",
        createdAt: "2026-11-18T10:00:00Z",
        refundLineItems: { nodes: [{ lineItem: { id: "gid://shopify/LineItem/14783254397003" }, quantity: 1 }] },
      },
    ];
    const { order } = adaptBulkOrder({ parent, children: g.children });
    expect(order.fulfillments?.map((f) => f.line_items)).toEqual([
      [{ id: 14783254331467, quantity: 1 }],
      [{ id: 14783254364235, quantity: 1 }],
    ]);
    expect(order.refunds).toEqual([
      {
        id: 1012345678901,
        created_at: "2026-11-18T10:00:00Z",
        refund_line_items: [{ line_item_id: 14783254397003, quantity: 1 }],
      },
    ]);
  });

  it("GIVEN children that are not line items or belong elsewhere THEN they are left out", () => {
    const g = group("#1001");
    const children = [...g.children, { id: "gid://shopify/Metafield/1", key: "x", __parentId: g.parent.id }];
    expect(adaptBulkOrder({ parent: g.parent, children }).order.line_items).toHaveLength(1);
  });

  it("GIVEN a node that is not an order THEN OrderNodeError names the field", () => {
    expect(() => adaptBulkOrder({ parent: { id: "gid://shopify/Product/1" }, children: [] })).toThrow(OrderNodeError);
    expect(() => adaptBulkOrder({ parent: { id: "gid://shopify/Order/1", test: "yes" }, children: [] })).toThrow(
      /test/,
    );
    const bad = {
      parent: { id: "gid://shopify/Order/1" },
      children: [{ id: "gid://shopify/LineItem/2", quantity: "two", __parentId: "gid://shopify/Order/1" }],
    };
    expect(() => adaptBulkOrder(bad)).toThrow(/line item gid:\/\/shopify\/LineItem\/2/);
  });
});

describe("timestamps", () => {
  it("writes a UTC instant in the shop's offset, as webhooks do", () => {
    expect(restTime("2026-11-14T23:32:10Z", "-08:00")).toBe("2026-11-14T15:32:10-08:00");
    expect(restTime("2026-11-04T22:10:00Z", "+01:00")).toBe("2026-11-04T23:10:00+01:00");
    expect(restTime("2026-11-04T22:10:00Z", "+0530")).toBe("2026-11-05T03:40:00+05:30");
    expect(restTime("2026-11-04T22:10:00Z", "Z")).toBe("2026-11-04T22:10:00+00:00");
    expect(restTime("2026-11-04T22:10:00Z")).toBe("2026-11-04T22:10:00Z");
    expect(restTime(null, "+01:00")).toBeNull();
  });

  it("reads the offset a webhook timestamp carries", () => {
    expect(utcOffsetOf("2026-11-10T08:01:09-08:00")).toBe("-08:00");
    expect(utcOffsetOf("2026-11-10T08:01:09+00:00")).toBe("+00:00");
    expect(utcOffsetOf("2026-11-10T08:01:09Z")).toBe("+00:00");
    expect(utcOffsetOf("2026-11-10")).toBeUndefined();
    expect(trackedUtcOffset({ order: null })).toBeUndefined();
  });

  it("GIVEN no offset THEN delivery dates are UTC days (why the reconciliation passes the shop's offset)", () => {
    const estimate = (utcOffset?: string) => {
      const m = mapOrder(adaptBulkOrder(group("#1004"), { utcOffset }).order, mapContext());
      return isExcluded(m) ? m : m.estimatedDeliveryDate;
    };
    // 2026-11-21T20:00:00-08:00 is the 22nd in UTC.
    expect(estimate()).toBe("2026-11-22");
    expect(estimate("-08:00")).toBe("2026-11-21");
  });
});
