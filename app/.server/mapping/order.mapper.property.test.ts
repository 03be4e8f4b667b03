import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderV2Schema } from "../reviews";
import { productKey } from "./keys";
import { isExcluded, mapOrder, orderFingerprint, type ConsentState, type OrderMapContext } from "./order.mapper";
import type { ProductData } from "./order.items";
import { mappedOrderSchema, shopifyOrderSchema, type ShopifyOrder } from "./order.schemas";
import { orderSettings } from "./order.test-helpers";
import { fuzzRuns } from "./fuzz.testkit";

// Odd but valid orders: everything Shopify may send or leave out, in any combination. The mapper
// must never throw and never produce a body the spec (or our stricter reading of it) forbids.

const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("", " ", "\u00a0", "Default Title", "default title", "Zoë", "山田", "O'Brien-Łukasz", "🙂"),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

// Small id pools so that fulfillments, refunds and events point at line items and fulfillments that exist.
const lineId = fc.integer({ min: 1, max: 12 }).map((i) => 14783254000000 + i);
const fulfillmentId = fc.integer({ min: 1, max: 4 }).map((i) => 5123456000000 + i);
const productId = fc.oneof(
  fc.integer({ min: 1, max: 6 }).map((i) => 8712345000000 + i),
  fc.integer({ min: 1, max: 6 }).map((i) => `gid://shopify/Product/${8712345000000 + i}`),
);

const offset = fc.constantFrom("Z", "+00:00", "-05:00", "+01:00", "+05:30", "-08:00", "+14:00", "-12:00", "+0930");
const timestamp = fc
  .tuple(
    fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2035-12-31T23:59:59Z"), noInvalidDate: true }),
    offset,
  )
  .map(([d, off]) => d.toISOString().slice(0, 19) + off);
const when = maybe(
  fc.oneof(
    { weight: 8, arbitrary: timestamp },
    { weight: 1, arbitrary: fc.constantFrom("", "garbage", "2026-02-30T10:00:00Z") },
  ),
);

const phone = maybe(
  fc.oneof(
    fc.constantFrom(
      "+1 212-555-0134",
      "06 12 34 56 78",
      "0151 23456789",
      "+44 (0)20 7946 0958",
      "00",
      "n/a",
      "+",
      "0000000",
      "1-800-FLOWERS",
    ),
    fc.stringMatching(/^\+?[0-9 ()-]{0,20}$/),
    text,
  ),
);
const email = maybe(fc.oneof(fc.constantFrom("", " ", "a@b", "buyer@example.com", "no-at-sign", "two@@ats"), text));
const country = maybe(
  fc.constantFrom("US", "CA", "GB", "DE", "FR", "ES", "IT", "BR", "MX", "JP", "IN", "SI", "", "xx"),
);

const address = maybe(
  fc.record(
    { first_name: maybe(text), last_name: maybe(text), name: maybe(text), phone, country_code: country },
    { requiredKeys: [] },
  ),
);

const consentObject = maybe(
  fc.record({
    state: maybe(
      fc.constantFrom("subscribed", "not_subscribed", "unsubscribed", "pending", "redacted", "invalid", "SUBSCRIBED"),
    ),
  }),
);

const customer = maybe(
  fc.record(
    {
      id: fc.oneof(fc.integer({ min: 1, max: 2 ** 53 - 1 }), fc.constant("gid://shopify/Customer/7412345678901")),
      first_name: maybe(text),
      last_name: maybe(text),
      email,
      phone,
      state: maybe(fc.constantFrom("enabled", "disabled", "invited", "declined")),
      default_address: address,
      email_marketing_consent: consentObject,
      sms_marketing_consent: consentObject,
      accepts_marketing: maybe(fc.boolean()),
    },
    { requiredKeys: ["id"] },
  ),
);

const quantity = maybe(fc.integer({ min: 0, max: 5 }));
const lineItem = fc.record(
  {
    id: lineId,
    product_id: maybe(productId),
    variant_id: maybe(fc.integer({ min: 1, max: 10 }).map((i) => 45012345000000 + i)),
    sku: maybe(fc.oneof(text, fc.constantFrom("TR2-BLU-42", "SOCK-M"))),
    title: maybe(text),
    variant_title: maybe(text),
    vendor: maybe(text),
    quantity,
    current_quantity: quantity,
    fulfillable_quantity: quantity,
    fulfillment_status: maybe(fc.constantFrom("fulfilled", "partial", "not_eligible", "restocked")),
    requires_shipping: maybe(fc.boolean()),
    gift_card: maybe(fc.boolean()),
    product_exists: maybe(fc.boolean()),
    properties: maybe(
      fc.array(
        fc.record({
          name: maybe(fc.oneof(text, fc.constant("Seller"))),
          value: maybe(fc.oneof(text, fc.integer(), fc.boolean())),
        }),
        {
          maxLength: 3,
        },
      ),
    ),
  },
  { requiredKeys: ["id"] },
);

const fulfillmentStatus = fc.constantFrom("pending", "open", "success", "cancelled", "error", "failure", "SUCCESS");
const shipmentStatus = maybe(
  fc.constantFrom(
    "label_printed",
    "label_purchased",
    "attempted_delivery",
    "ready_for_pickup",
    "confirmed",
    "in_transit",
    "out_for_delivery",
    "delivered",
    "failure",
    "picked_up",
  ),
);
const fulfillment = fc.record(
  {
    id: fulfillmentId,
    status: maybe(fulfillmentStatus),
    shipment_status: shipmentStatus,
    created_at: when,
    updated_at: when,
    estimated_delivery_at: when,
    tracking_company: maybe(text),
    line_items: maybe(fc.array(fc.record({ id: lineId }), { maxLength: 4 })),
  },
  { requiredKeys: ["id"] },
);

const refund = fc.record(
  {
    id: maybe(fc.integer({ min: 1, max: 2 ** 40 })),
    created_at: when,
    refund_line_items: maybe(
      fc.array(fc.record({ line_item_id: maybe(lineId), quantity: maybe(fc.integer({ min: 0, max: 5 })) }), {
        maxLength: 4,
      }),
    ),
  },
  { requiredKeys: [] },
);

const shippingLine = fc.record(
  {
    code: maybe(fc.oneof(text, fc.constantFrom("Standard", "Pickup", "Local Delivery", "Point Relais"))),
    title: maybe(text),
    source: maybe(fc.constantFrom("shopify", "ups_shipping", "usps")),
    carrier_identifier: maybe(text),
    delivery_category: maybe(
      fc.oneof(text, fc.constantFrom("shipping", "pick-up", "local", "PICKUP_POINT", "retail", "none", "constructor")),
    ),
  },
  { requiredKeys: [] },
);

const shopifyOrder: fc.Arbitrary<ShopifyOrder> = fc.record(
  {
    id: fc.oneof(
      fc.integer({ min: 1, max: 2 ** 53 - 1 }),
      fc.constant("gid://shopify/Order/5923018113099"),
      fc.constant("5923018113099"),
    ),
    admin_graphql_api_id: maybe(fc.constant("gid://shopify/Order/5923018113099")),
    name: maybe(fc.oneof(fc.constant("#1001"), text)),
    order_number: maybe(fc.integer({ min: 1001, max: 999999 })),
    email,
    contact_email: email,
    phone,
    created_at: when,
    updated_at: when,
    processed_at: when,
    cancelled_at: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: when }),
    cancel_reason: maybe(fc.constantFrom("customer", "fraud", "inventory", "declined", "other")),
    closed_at: when,
    financial_status: maybe(
      fc.constantFrom(
        "pending",
        "authorized",
        "partially_paid",
        "paid",
        "partially_refunded",
        "refunded",
        "voided",
        "expired",
        "PAID",
        "weird",
      ),
    ),
    fulfillment_status: maybe(fc.constantFrom("partial", "fulfilled", "restocked")),
    test: maybe(fc.boolean()),
    source_name: maybe(
      fc.constantFrom("web", "pos", "shopify_draft_order", "iphone", "android", "2329312", "", "constructor"),
    ),
    buyer_accepts_marketing: maybe(fc.boolean()),
    customer,
    shipping_address: address,
    billing_address: address,
    line_items: maybe(fc.array(lineItem, { maxLength: 14 })),
    fulfillments: maybe(fc.array(fulfillment, { maxLength: 4 })),
    refunds: maybe(fc.array(refund, { maxLength: 3 })),
    shipping_lines: maybe(fc.array(shippingLine, { maxLength: 2 })),
  },
  { requiredKeys: ["id"] },
);

const consentState = optional(
  fc.constantFrom<ConsentState | Uppercase<ConsentState>>(
    "subscribed",
    "not_subscribed",
    "unsubscribed",
    "pending",
    "redacted",
    "invalid",
    "SUBSCRIBED",
  ),
);

const productData: fc.Arbitrary<ProductData | undefined> = optional(
  fc.record(
    {
      name: maybe(text),
      brand: maybe(text),
      url: maybe(text),
      image: maybe(text),
      categories: maybe(fc.array(text, { maxLength: 3 })),
      gtin: maybe(text),
      ean: maybe(text),
      mpn: maybe(text),
    },
    { requiredKeys: [] },
  ),
);

const context: fc.Arbitrary<OrderMapContext> = fc
  .record({
    orderIdSource: fc.constantFrom("id" as const, "name" as const),
    seller: fc.oneof(
      fc.constant({ mode: "none" as const }),
      fc.constant({ mode: "vendor" as const }),
      fc.constant({ mode: "property" as const, property: "Seller" }),
    ),
    deliveredAfterDays: maybe(fc.integer({ min: 1, max: 90 })),
    optOut: fc.record({
      email: fc.constantFrom("consent" as const, "unsubscribed" as const, "never" as const, "always" as const),
      sms: fc.constantFrom("consent" as const, "unsubscribed" as const, "never" as const, "always" as const),
      whatsapp: fc.constantFrom("consent" as const, "unsubscribed" as const, "never" as const, "always" as const),
    }),
    exclude: fc.record({
      testOrders: fc.boolean(),
      giftCardOnly: fc.boolean(),
      sourceNames: fc.array(fc.constantFrom("pos", "2329312"), { maxLength: 2 }),
    }),
    variantKeyMode: fc.constantFrom("id" as const, "sku" as const),
    consent: optional(
      fc.record({ email: consentState, sms: consentState, whatsapp: consentState }, { requiredKeys: [] }),
    ),
    events: optional(
      fc.dictionary(
        fulfillmentId.map(String),
        fc.array(
          fc.record({
            status: fc.constantFrom("in_transit", "DELIVERED", "picked_up", "delayed", "failure"),
            happenedAt: timestamp,
            estimatedDeliveryAt: maybe(timestamp),
          }),
          {
            maxLength: 3,
          },
        ),
      ),
    ),
    productData,
    now: fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true }),
  })
  .map(({ variantKeyMode, consent, events, productData: data, now, ...orders }) => ({
    settings: orderSettings(orders),
    variantKeyMode,
    consent,
    fulfillmentEvents: events,
    productData: () => data,
    now,
  }));

/** Every string and null in a body, with its path. */
function* leaves(value: unknown, path = "$"): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* leaves(v, `${path}[${i}]`);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) yield* leaves(v, `${path}.${k}`);
  else yield [path, value];
}

describe("mapOrder on generated odd-but-valid orders", () => {
  it("never throws and only produces bodies the spec allows", () => {
    fc.assert(
      fc.property(shopifyOrder, context, (order, ctx) => {
        // The generator stays inside what the webhook schema accepts.
        shopifyOrderSchema.parse(order);
        const before = structuredClone(order);
        const result = mapOrder(order, ctx);
        expect(order, "the payload is not mutated").toEqual(before);

        if (isExcluded(result)) {
          expect(["test", "gift_card_only", "channel"]).toContain(result.excluded);
          return;
        }
        mappedOrderSchema.parse(result);
        const { version, ...withoutVersion } = result;
        expect(version).toBe(2);
        orderV2Schema.parse(withoutVersion); // the reviews client's own request schema

        expect(JSON.parse(JSON.stringify(result)), "JSON round trip").toEqual(result);
        for (const [path, leaf] of leaves(result)) {
          expect(leaf, path).not.toBeNull();
          expect(leaf, path).not.toBe("");
          if (typeof leaf === "string") expect(leaf.trim(), path).toBe(leaf);
        }
        if (result.deliveredDate) expect(result.status).toBe("delivered");
        if (result.estimatedDeliveryDate) expect(result.status).toBe("shipped");
        if (result.userId) expect(result.userId).not.toMatch(/@|\+/);

        const reviewable = new Set(
          (order.line_items ?? [])
            .filter((l) => l.product_id != null && l.gift_card !== true)
            .map((l) => productKey(l.product_id!)),
        );
        for (const item of result.items) expect(reviewable.has(item.productId), item.productId).toBe(true);

        expect(orderFingerprint(mapOrder(order, ctx) as typeof result)).toBe(orderFingerprint(result));
      }),
      { numRuns: fuzzRuns(1500) },
    );
  });
});
