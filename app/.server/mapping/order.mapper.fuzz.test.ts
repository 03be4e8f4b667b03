import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderV2Schema } from "../reviews";
import { anyText, bodyDefect, fuzzRuns, leaves, longText, maybe, oddText, optional } from "./fuzz.testkit";
import { productKey } from "./keys";
import type { ProductData } from "./order.items";
import { isExcluded, mapOrder, orderFingerprint, type OrderMapContext } from "./order.mapper";
import { mappedOrderSchema, shopifyOrderSchema, type ShopifyOrder } from "./order.schemas";
import { orderSettings } from "./order.test-helpers";

// Fuzz: thousands of odd but valid Shopify orders (orders/* webhook payloads) through the parse →
// map path of the order handler. Guests without customer, orders without any e-mail or phone,
// custom line items without product_id, gift cards, 250 line items, every script and astral
// character, text far past Shopify's limits where no limit protects us (line-item properties), and
// the nulls Shopify sends for "unset". The mapper must not throw, and its body must pass the
// reviews client's request schema and the spec's rules: orderId present, status one of the version-2
// statuses, items only for products (never custom items or gift cards), no empty or null fields.

const RUNS = fuzzRuns(2_500);
const LINE_BASE = 14783254000000;
const PRODUCT_BASE = 8712345000000;
const VARIANT_BASE = 45012345000000;
const FULFILLMENT_BASE = 5123456000000;

/** Names, e-mails and the like are capped at 255 by Shopify; odd in every other way. */
const name = fc.oneof({ weight: 10, arbitrary: oddText }, { weight: 1, arbitrary: longText(200, 255) });
const offset = fc.constantFrom("Z", "+00:00", "-05:00", "+05:30", "+14:00", "-12:00", "+0930");
const timestamp = fc
  .tuple(
    fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2035-12-31T23:59:59Z"), noInvalidDate: true }),
    offset,
  )
  .map(([d, off]) => d.toISOString().slice(0, 19) + off);
const when = maybe(
  fc.oneof(
    { weight: 10, arbitrary: timestamp },
    { weight: 1, arbitrary: fc.constantFrom("", "garbage", "2026-02-30T10:00:00Z") },
  ),
);
const email = maybe(
  fc.oneof(
    fc.constantFrom("", " ", "buyer@example.com", "  jo@example.com ", "no-at-sign", "ユーザー@例え.jp", "a@b"),
    name,
  ),
);
const phone = maybe(
  fc.oneof(
    fc.constantFrom(
      "+1 212-555-0134",
      "06 12 34 56 78",
      "+44 (0)20 7946 0958",
      "٠٦١٢٣٤٥٦٧٨",
      "+",
      "1-800-FLOWERS",
      "+972 50-123-4567",
    ),
    fc.stringMatching(/^\+?[0-9 ()-]{0,24}$/),
    name,
  ),
);
const country = maybe(fc.constantFrom("US", "GB", "DE", "FR", "IL", "SA", "JP", "IN", "BR", "", "xx"));
const address = maybe(
  fc.record(
    { first_name: maybe(name), last_name: maybe(name), name: maybe(name), phone, country_code: country },
    { requiredKeys: [] },
  ),
);
const consent = maybe(
  fc.record({
    state: maybe(
      fc.constantFrom("subscribed", "not_subscribed", "unsubscribed", "pending", "redacted", "invalid", "SUBSCRIBED"),
    ),
  }),
);
const customer = fc.record(
  {
    id: fc.oneof(
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      fc.constant("gid://shopify/Customer/7412345678901"),
    ),
    first_name: maybe(name),
    last_name: maybe(name),
    email,
    phone,
    state: maybe(fc.constantFrom("enabled", "disabled", "invited", "declined")),
    default_address: address,
    email_marketing_consent: consent,
    sms_marketing_consent: consent,
    accepts_marketing: maybe(fc.boolean()),
  },
  { requiredKeys: ["id"] },
);

/** What kind of line: a catalog product, a custom item (no product), a gift card, a deleted product. */
type LineKind = "product" | "custom" | "gift_card" | "deleted_product";
const lineTraits = fc.record({
  kind: fc.constantFrom<LineKind>("product", "product", "product", "custom", "gift_card", "deleted_product"),
  product: fc.integer({ min: 1, max: 8 }),
  variant: maybe(fc.integer({ min: 1, max: 12 })),
  sku: maybe(fc.oneof(name, fc.constantFrom("TR2-BLU-42", "  ", "SKU-😀"))),
  title: maybe(name),
  variantTitle: maybe(fc.oneof(name, fc.constant("Default Title"))),
  vendor: maybe(name),
  quantity: fc.integer({ min: 0, max: 5 }),
  fulfilled: fc.integer({ min: 0, max: 5 }),
  properties: maybe(
    fc.array(
      fc.record({
        name: maybe(fc.oneof(fc.constant("Seller"), fc.constant(" seller "), name)),
        value: maybe(fc.oneof(anyText(20_000), fc.integer(), fc.boolean())),
      }),
      { maxLength: 3 },
    ),
  ),
});

type LineTraits = typeof lineTraits extends fc.Arbitrary<infer T> ? T : never;

function lineItem(i: number, t: LineTraits): Record<string, unknown> {
  const productId = t.kind === "product" || t.kind === "gift_card" ? PRODUCT_BASE + t.product : null;
  const remaining = Math.max(0, t.quantity - t.fulfilled);
  return {
    id: LINE_BASE + i,
    admin_graphql_api_id: `gid://shopify/LineItem/${LINE_BASE + i}`,
    product_id: productId,
    variant_id: productId && t.variant ? VARIANT_BASE + t.product * 100 + t.variant : null,
    sku: t.sku,
    title: t.title,
    name: t.title,
    variant_title: t.kind === "custom" ? null : t.variantTitle,
    vendor: t.vendor,
    quantity: t.quantity,
    current_quantity: t.quantity,
    fulfillable_quantity: remaining,
    fulfillment_status: remaining === 0 && t.quantity > 0 ? "fulfilled" : t.fulfilled > 0 ? "partial" : null,
    requires_shipping: t.kind !== "gift_card",
    gift_card: t.kind === "gift_card",
    product_exists: t.kind !== "deleted_product" && t.kind !== "custom",
    properties: t.properties,
    price: "19.00",
    tax_lines: [],
    discount_allocations: [],
  };
}

const manyLines = fc
  .record({ count: fc.integer({ min: 200, max: 250 }), traits: fc.array(lineTraits, { minLength: 1, maxLength: 5 }) })
  .map(({ count, traits }) => Array.from({ length: count }, (_, i) => lineItem(i, traits[i % traits.length])));
const lines = maybe(
  fc.oneof(
    { weight: 15, arbitrary: fc.array(lineTraits, { maxLength: 12 }).map((ts) => ts.map((t, i) => lineItem(i, t))) },
    { weight: 1, arbitrary: manyLines },
  ),
);

const fulfillment = fc.record(
  {
    id: fc.integer({ min: 1, max: 4 }).map((i) => FULFILLMENT_BASE + i),
    status: maybe(fc.constantFrom("pending", "open", "success", "cancelled", "error", "failure")),
    shipment_status: maybe(
      fc.constantFrom(
        "label_printed",
        "confirmed",
        "in_transit",
        "out_for_delivery",
        "delivered",
        "failure",
        "ready_for_pickup",
        "picked_up",
      ),
    ),
    created_at: when,
    updated_at: when,
    estimated_delivery_at: when,
    tracking_company: maybe(name),
    line_items: maybe(
      fc.array(
        fc.record({
          id: fc.integer({ min: 0, max: 260 }).map((i) => LINE_BASE + i),
          quantity: maybe(fc.integer({ min: 0, max: 5 })),
        }),
        { maxLength: 6 },
      ),
    ),
  },
  { requiredKeys: ["id"] },
);
const refund = fc.record(
  {
    id: maybe(fc.integer({ min: 1, max: 2 ** 40 })),
    created_at: when,
    refund_line_items: maybe(
      fc.array(
        fc.record({
          line_item_id: maybe(fc.integer({ min: 0, max: 260 }).map((i) => LINE_BASE + i)),
          quantity: maybe(fc.integer({ min: 0, max: 5 })),
        }),
        { maxLength: 4 },
      ),
    ),
  },
  { requiredKeys: [] },
);
const shippingLine = fc.record(
  {
    code: maybe(fc.oneof(name, fc.constantFrom("Standard", "Pickup", "Point Relais"))),
    title: maybe(name),
    source: maybe(fc.constantFrom("shopify", "ups_shipping")),
    carrier_identifier: maybe(name),
    delivery_category: maybe(
      fc.oneof(name, fc.constantFrom("shipping", "pick-up", "local", "PICKUP_POINT", "retail", "none")),
    ),
  },
  { requiredKeys: [] },
);

const order = fc.record(
  {
    id: fc.oneof(
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      fc.constant("gid://shopify/Order/5923018113099"),
      fc.constant("5923018113099"),
    ),
    admin_graphql_api_id: maybe(fc.constant("gid://shopify/Order/5923018113099")),
    name: maybe(fc.oneof(fc.constant("#1001"), name)),
    order_number: maybe(fc.integer({ min: 1001, max: 9_999_999 })),
    email,
    contact_email: email,
    phone,
    note: maybe(anyText(100_000)),
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
      ),
    ),
    fulfillment_status: maybe(fc.constantFrom("partial", "fulfilled", "restocked")),
    test: maybe(fc.boolean()),
    source_name: maybe(
      fc.constantFrom("web", "pos", "shopify_draft_order", "iphone", "2329312", "", "constructor", "__proto__"),
    ),
    buyer_accepts_marketing: maybe(fc.boolean()),
    // Absent (the key missing) and null both mean a guest checkout.
    customer: maybe(customer),
    shipping_address: address,
    billing_address: address,
    line_items: lines,
    fulfillments: maybe(fc.array(fulfillment, { maxLength: 4 })),
    refunds: maybe(fc.array(refund, { maxLength: 3 })),
    shipping_lines: maybe(fc.array(shippingLine, { maxLength: 2 })),
    note_attributes: maybe(fc.array(fc.record({ name: name, value: name }), { maxLength: 3 })),
  },
  { requiredKeys: ["id"] },
);

const productData: fc.Arbitrary<ProductData | undefined> = optional(
  fc.record(
    {
      name: maybe(name),
      brand: maybe(name),
      url: maybe(fc.oneof(name, fc.constant("https://shop.example.com/products/tee"))),
      image: maybe(name),
      categories: maybe(fc.array(name, { maxLength: 4 })),
      gtin: maybe(name),
      ean: maybe(name),
      mpn: maybe(name),
    },
    { requiredKeys: [] },
  ),
);

const context: fc.Arbitrary<OrderMapContext> = fc
  .record({
    orderIdSource: fc.constantFrom("id" as const, "name" as const),
    seller: fc.constantFrom(
      { mode: "none" as const },
      { mode: "vendor" as const },
      { mode: "property" as const, property: "Seller" },
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
    events: optional(
      fc.dictionary(
        fc.integer({ min: 1, max: 4 }).map((i) => String(FULFILLMENT_BASE + i)),
        fc.array(
          fc.record({
            status: fc.constantFrom("in_transit", "DELIVERED", "picked_up", "failure"),
            happenedAt: timestamp,
            estimatedDeliveryAt: maybe(timestamp),
          }),
          { maxLength: 3 },
        ),
      ),
    ),
    productData,
    now: fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true }),
  })
  .map(({ variantKeyMode, events, productData: data, now, ...orders }) => ({
    settings: orderSettings(orders),
    variantKeyMode,
    fulfillmentEvents: events,
    productData: () => data,
    now,
  }));

describe("order mapper fuzz: odd but valid Shopify orders", () => {
  it(`orders/* webhooks (${RUNS} runs) map to a version-2 body the service accepts`, () => {
    fc.assert(
      fc.property(order, context, (payload, ctx) => {
        const parsed: ShopifyOrder = shopifyOrderSchema.parse(payload);
        const before = JSON.stringify(parsed);
        const result = mapOrder(parsed, ctx);
        expect(JSON.stringify(parsed), "the payload is not mutated").toBe(before);
        if (isExcluded(result)) return;

        const { version, ...body } = result;
        expect(version).toBe(2);
        // What the reviews client checks before sending (a failure there is a job that never succeeds).
        const client = orderV2Schema.safeParse(body);
        expect(client.success, client.success ? "" : JSON.stringify(client.error.issues.slice(0, 3))).toBe(true);
        const own = mappedOrderSchema.safeParse(result);
        expect(own.success, own.success ? "" : JSON.stringify(own.error.issues.slice(0, 3))).toBe(true);
        const defect = bodyDefect(result);
        expect(defect, defect ?? "").toBeNull();
        for (const [path, leaf] of leaves(result)) if (typeof leaf === "string") expect(leaf.trim(), path).toBe(leaf);

        // Items: products only, at most one per product, variant and seller; keyed like the catalog.
        const lines = parsed.line_items ?? [];
        const reviewable = lines.filter((l) => l.product_id != null && l.gift_card !== true);
        const keys = new Set(reviewable.map((l) => productKey(l.product_id!)));
        expect(result.items.length).toBeLessThanOrEqual(reviewable.length);
        for (const item of result.items) {
          expect(keys.has(item.productId), item.productId).toBe(true);
          if (ctx.variantKeyMode === "id" && item.sku) expect(item.sku).toMatch(/^\d+$/);
        }
        const itemKeys = result.items.map((i) => [i.productId, i.sku ?? "", i.sellerInfo?.id ?? ""].join("\u0000"));
        expect(new Set(itemKeys).size).toBe(itemKeys.length);

        // Contact data only where the buyer gave it; the user id is never contact data.
        const given = [parsed.customer?.email, parsed.email, parsed.contact_email]
          .map((e) => e?.trim())
          .filter(Boolean);
        if (result.email) expect(given).toContain(result.email);
        if (result.userId) expect(result.userId).toMatch(/^\d+$/);
        if (!parsed.customer) expect(result.userId).toBeUndefined();
        if (result.deliveredDate) expect(result.status).toBe("delivered");
        if (result.estimatedDeliveryDate) expect(result.status).toBe("shipped");

        expect(orderFingerprint(mapOrder(parsed, ctx) as typeof result)).toBe(orderFingerprint(result));
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
