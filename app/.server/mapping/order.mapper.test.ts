import { describe, expect, it, vi } from "vitest";
import {
  exclusionReason,
  isExcluded,
  mapOrder,
  orderFingerprint,
  orderUpdatedAt,
  type OrderMapContext,
  type OrderMapResult,
} from "./order.mapper";
import { mappedOrderSchema, type MappedOrder, type ShopifyLineItem, type ShopifyOrder } from "./order.schemas";
import { NOW, loadOrder, mapContext, orderSettings, type OrderFixture } from "./order.test-helpers";

function mapped(result: OrderMapResult): MappedOrder {
  if (isExcluded(result)) throw new Error(`excluded: ${result.excluded}`);
  // Every body a test looks at is also a body the spec allows.
  return mappedOrderSchema.parse(result);
}

const map = (order: ShopifyOrder, ctx: Partial<OrderMapContext> = {}) => mapped(mapOrder(order, mapContext(ctx)));
const mapFixture = (name: OrderFixture, ctx: Partial<OrderMapContext> = {}) => map(loadOrder(name), ctx);

function lineLike(base: ShopifyLineItem, fields: Partial<ShopifyLineItem>): ShopifyLineItem {
  return { ...structuredClone(base), ...fields };
}

describe("mapOrder: fixtures end to end", () => {
  it("maps a paid web order of a logged-in customer", () => {
    expect(mapFixture("paid-web-customer")).toEqual({
      version: 2,
      orderId: "5923018113099",
      createdDate: "2026-11-18T14:42:17.000Z",
      authorizedDate: "2026-11-18T14:42:17.000Z",
      modifiedDate: "2026-11-18T14:42:21.000Z",
      userId: "7412345678901",
      name: "Avery Johnson",
      email: "avery.johnson@example.com",
      phone: "+12125550134",
      status: "paid",
      pointOfSale: "online store",
      deliveryMethod: "shipping",
      optOutEmail: false,
      optOutSMS: true,
      optOutWhatsApp: true,
      items: [
        { productId: "8712345677899", sku: "45012345678923", skuName: "Blue / 42", status: "paid", cancelled: false },
      ],
    });
  });

  it('maps a guest POS sale with email "" as delivered in store, without contact data', () => {
    expect(mapFixture("pos-guest")).toEqual({
      version: 2,
      orderId: "5923018145867",
      createdDate: "2026-11-19T13:05:44.000Z",
      authorizedDate: "2026-11-19T13:05:44.000Z",
      modifiedDate: "2026-11-19T13:05:44.000Z",
      status: "delivered",
      deliveredDate: "2026-11-19",
      pointOfSale: "point of sale",
      deliveryMethod: "in store",
      optOutEmail: false,
      optOutSMS: true,
      optOutWhatsApp: true,
      items: [{ productId: "8712345710667", sku: "45012345711691", status: "delivered", cancelled: false }],
    });
  });

  it("maps a pending draft order with email null", () => {
    const body = mapFixture("draft-order");
    expect(body).toMatchObject({
      status: "created",
      pointOfSale: "draft order",
      phone: "+33612345678",
      name: "Camille Durand",
    });
    expect(body).not.toHaveProperty("email");
    expect(body).not.toHaveProperty("authorizedDate");
  });

  it("maps the fixtures that must be excluded to their reason", () => {
    expect(mapOrder(loadOrder("test-order"), mapContext())).toEqual({ excluded: "test" });
    expect(mapOrder(loadOrder("gift-card-only"), mapContext())).toEqual({ excluded: "gift_card_only" });
  });
});

describe("orderId", () => {
  it("is the legacy order id by default", () => {
    expect(mapFixture("paid-web-customer").orderId).toBe("5923018113099");
  });
  it("is the order name when orderIdSource = name", () => {
    expect(mapFixture("paid-web-customer", { settings: orderSettings({ orderIdSource: "name" }) }).orderId).toBe(
      "#1001",
    );
  });
  it("falls back to #order_number when the payload has no name", () => {
    const order = loadOrder("paid-web-customer");
    order.name = null;
    expect(map(order, { settings: orderSettings({ orderIdSource: "name" }) }).orderId).toBe("#1001");
  });
});

describe("dates", () => {
  it("createdDate is created_at in ISO 8601 UTC", () => {
    expect(mapFixture("delivered").createdDate).toBe("2026-11-02T18:30:00.000Z");
  });
  it("authorizedDate is processed_at once payment is authorized or captured", () => {
    const order = loadOrder("paid-web-customer");
    order.processed_at = "2026-11-17T23:59:00-05:00"; // imported order processed before it was created here
    expect(map(order).authorizedDate).toBe("2026-11-18T04:59:00.000Z");
    order.financial_status = "authorized";
    expect(map(order).authorizedDate).toBe("2026-11-18T04:59:00.000Z");
  });
  it("authorizedDate is absent while payment is pending", () => {
    expect(mapFixture("draft-order")).not.toHaveProperty("authorizedDate");
  });
  it("modifiedDate is updated_at in ISO 8601 UTC", () => {
    expect(mapFixture("partially-fulfilled").modifiedDate).toBe("2026-11-17T19:45:30.000Z");
  });
  it("deliveredDate is sent only with status delivered, estimatedDeliveryDate only with shipped", () => {
    const delivered = mapFixture("delivered");
    expect(delivered).toMatchObject({ status: "delivered", deliveredDate: "2026-11-04" });
    expect(delivered).not.toHaveProperty("estimatedDeliveryDate");
    const shipped = mapFixture("partially-fulfilled");
    expect(shipped).toMatchObject({ status: "shipped", estimatedDeliveryDate: "2026-11-21" });
    expect(shipped).not.toHaveProperty("deliveredDate");
  });
  it("treats an order as delivered deliveredAfterDays after shipping", () => {
    const order = loadOrder("partially-fulfilled");
    const rain = order.line_items![2]!;
    rain.current_quantity = 0;
    rain.fulfillable_quantity = 0;
    const body = map(order, {
      settings: orderSettings({ deliveredAfterDays: 2 }),
      now: new Date("2026-11-20T00:00:00Z"),
    });
    expect(body).toMatchObject({ status: "delivered", deliveredDate: "2026-11-18" });
    expect(body.items.map((i) => i.status)).toEqual(["delivered", "delivered", "cancelled"]);
  });
  it("drops unparseable dates instead of sending them", () => {
    const order = loadOrder("paid-web-customer");
    order.created_at = "yesterday";
    order.updated_at = "2026-02-31T10:00:00Z";
    const body = map(order);
    expect(body.createdDate).toBe("2026-11-18T14:42:17.000Z"); // processed_at
    expect(body).not.toHaveProperty("modifiedDate");
  });
});

describe("buyer", () => {
  it("userId is the customer id as a string", () => {
    expect(mapFixture("partially-fulfilled").userId).toBe("7412345744437");
  });
  it("userId is absent for guests", () => {
    expect(mapFixture("pos-guest")).not.toHaveProperty("userId");
  });

  it("name is the customer's first and last name", () => {
    expect(mapFixture("delivered").name).toBe("Lena Müller");
  });
  it("name falls back to the shipping address, then the billing address", () => {
    const order = loadOrder("paid-web-customer");
    order.customer!.first_name = null;
    order.customer!.last_name = "";
    order.shipping_address = { ...order.shipping_address!, first_name: "Ship", last_name: "To" };
    order.billing_address = { ...order.billing_address!, first_name: "Bill", last_name: "To" };
    expect(map(order).name).toBe("Ship To");
    order.shipping_address = null;
    expect(map(order).name).toBe("Bill To");
    order.billing_address = null;
    expect(map(order)).not.toHaveProperty("name");
  });
  it("name keeps any script and collapses whitespace", () => {
    const order = loadOrder("paid-web-customer");
    order.customer!.first_name = "  山田 ";
    order.customer!.last_name = "太郎\u00a0";
    expect(map(order).name).toBe("山田 太郎");
  });

  it("email is the customer's, then the order's, then contact_email", () => {
    const order = loadOrder("paid-web-customer");
    order.customer!.email = "customer@example.com";
    order.email = "order@example.com";
    order.contact_email = "contact@example.com";
    expect(map(order).email).toBe("customer@example.com");
    order.customer!.email = null;
    expect(map(order).email).toBe("order@example.com");
    order.email = "";
    expect(map(order).email).toBe("contact@example.com");
  });
  it('email "" and null are absent', () => {
    expect(mapFixture("pos-guest")).not.toHaveProperty("email");
    expect(mapFixture("draft-order")).not.toHaveProperty("email");
  });

  it("phone is the customer's phone first", () => {
    expect(mapFixture("partially-fulfilled").phone).toBe("+14155550172");
  });
  it("phone falls back to the shipping, then the billing address phone", () => {
    const order = loadOrder("paid-web-customer");
    expect(map(order).phone).toBe("+12125550134");
    order.shipping_address = null;
    order.billing_address = { ...order.billing_address!, phone: "+1 (646) 555-0101" };
    expect(map(order).phone).toBe("+16465550101");
  });
  it("phone is normalized with the address country", () => {
    expect(mapFixture("delivered").phone).toBe("+4915123456789");
    expect(mapFixture("custom-and-removed").phone).toBe("+34612345678");
  });
  it("phone: an invalid number is skipped for the next candidate, and none means absent", () => {
    const order = loadOrder("paid-web-customer");
    order.customer!.phone = "n/a";
    expect(map(order).phone).toBe("+12125550134");
    order.shipping_address!.phone = "000";
    order.billing_address!.phone = null;
    expect(map(order)).not.toHaveProperty("phone");
  });
  it("phone: an E.164 candidate wins over an earlier number that could not be completed", () => {
    const order = loadOrder("paid-web-customer");
    // Too short for Slovenia: it stays bare digits.
    order.customer!.phone = "040 12 34";
    order.shipping_address = { ...order.shipping_address!, country_code: "SI", phone: "+386 40 123 456" };
    expect(map(order).phone).toBe("+38640123456");
    order.shipping_address.phone = null;
    order.billing_address = null;
    expect(map(order).phone).toBe("0401234");
  });
});

describe("pointOfSale", () => {
  it.each([
    ["web", "online store"],
    ["pos", "point of sale"],
    ["shopify_draft_order", "draft order"],
    ["iphone", "mobile app"],
    ["android", "mobile app"],
    ["2329312", "sales channel 2329312"],
  ])("source_name %s → %s", (source, expected) => {
    const order = loadOrder("paid-web-customer");
    order.source_name = source;
    expect(map(order).pointOfSale).toBe(expected);
  });
  it("is absent without source_name", () => {
    const order = loadOrder("paid-web-customer");
    order.source_name = null;
    expect(map(order)).not.toHaveProperty("pointOfSale");
  });
});

describe("deliveryMethod", () => {
  const withLine = (line: Record<string, string | null>, source = "web") => {
    const order = loadOrder("paid-web-customer");
    order.source_name = source;
    order.shipping_lines = [{ code: null, title: null, source: "shopify", ...line }];
    return map(order).deliveryMethod;
  };
  it("follows delivery_category when Shopify gives one", () => {
    expect(withLine({ code: "Standard", delivery_category: "pick-up" })).toBe("pickup");
    expect(withLine({ code: "Anything", delivery_category: "LOCAL" })).toBe("local delivery");
    expect(withLine({ code: "Anything", delivery_category: "pickup_point" })).toBe("pickup point");
    expect(withLine({ code: "In-store pickup", delivery_category: "shipping" })).toBe("shipping");
  });
  it("reads pickup from the code or title", () => {
    expect(withLine({ code: "Pickup", title: "Pickup at Main Street" })).toBe("pickup");
    expect(withLine({ code: "click & collect" })).toBe("pickup");
    expect(withLine({ code: "Retrait", title: "Collect in store" })).toBe("pickup");
  });
  it("reads local delivery from the code or title", () => {
    expect(withLine({ code: "Local Delivery", title: "Local Delivery" })).toBe("local delivery");
  });
  it("reads pickup points from the code or title", () => {
    expect(withLine({ code: "Mondial Relay", title: "Point Relais" })).toBe("pickup point");
  });
  it("is shipping for any other rate (carrier, custom, free)", () => {
    expect(withLine({ code: "UPS Ground", title: "UPS® Ground", source: "ups_shipping" })).toBe("shipping");
    expect(mapFixture("delivered").deliveryMethod).toBe("shipping");
  });
  it("is in store for a POS sale without shipping line, absent for other orders without one", () => {
    expect(mapFixture("pos-guest").deliveryMethod).toBe("in store");
    expect(
      mapFixture("gift-card-only", { settings: orderSettings({ exclude: { giftCardOnly: false } }) }),
    ).not.toHaveProperty("deliveryMethod");
  });
});

describe("opt-outs", () => {
  const STATES = ["subscribed", "not_subscribed", "unsubscribed", "pending", "redacted", "invalid", undefined] as const;
  // What each policy makes of each consent state of a channel (undefined: Shopify recorded none).
  const EXPECTED: Record<"consent" | "unsubscribed" | "never" | "always", Record<string, boolean>> = {
    consent: {
      subscribed: false,
      not_subscribed: true,
      unsubscribed: true,
      pending: true,
      redacted: true,
      invalid: true,
      unknown: true,
    },
    unsubscribed: {
      subscribed: false,
      not_subscribed: false,
      unsubscribed: true,
      pending: false,
      redacted: true,
      invalid: true,
      unknown: false,
    },
    never: {
      subscribed: false,
      not_subscribed: false,
      unsubscribed: false,
      pending: false,
      redacted: false,
      invalid: false,
      unknown: false,
    },
    always: {
      subscribed: true,
      not_subscribed: true,
      unsubscribed: true,
      pending: true,
      redacted: true,
      invalid: true,
      unknown: true,
    },
  };

  for (const mode of ["consent", "unsubscribed", "never", "always"] as const) {
    it(`${mode} mode: every consent state of every channel, in GraphQL and REST case`, () => {
      const settings = orderSettings({ optOut: { email: mode, sms: mode, whatsapp: mode } });
      for (const state of STATES) {
        for (const value of state ? [state, state.toUpperCase()] : [undefined]) {
          const consent = value ? { email: value, sms: value, whatsapp: value } : {};
          const body = mapFixture("paid-web-customer", { settings, consent: consent as OrderMapContext["consent"] });
          const want = EXPECTED[mode][state ?? "unknown"];
          expect([body.optOutEmail, body.optOutSMS, body.optOutWhatsApp], `${mode} ${value}`).toEqual([
            want,
            want,
            want,
          ]);
        }
      }
    });
  }

  it("default policy: e-mail goes unless the buyer unsubscribed, SMS and WhatsApp need consent", () => {
    expect(mapFixture("paid-web-customer")).toMatchObject({
      optOutEmail: false,
      optOutSMS: true,
      optOutWhatsApp: true,
    });
    expect(mapFixture("paid-web-customer", { consent: { email: "UNSUBSCRIBED" } }).optOutEmail).toBe(true);
    expect(
      mapFixture("paid-web-customer", {
        consent: { email: "not_subscribed", sms: "SUBSCRIBED", whatsapp: "SUBSCRIBED" },
      }),
    ).toMatchObject({
      optOutEmail: false,
      optOutSMS: false,
      optOutWhatsApp: false,
    });
  });
  it("consent mode: reads the consent objects of pre-2025-01 payloads", () => {
    const settings = orderSettings({ optOut: { email: "consent" } });
    expect(mapFixture("delivered", { settings })).toMatchObject({ optOutEmail: false, optOutSMS: true });
  });
  it("the caller's consent wins over the payload", () => {
    expect(mapFixture("delivered", { consent: { email: "unsubscribed" } }).optOutEmail).toBe(true);
  });
  it("consent mode: the checkout's marketing box counts as e-mail consent when nothing else is known", () => {
    const order = loadOrder("paid-web-customer");
    order.buyer_accepts_marketing = true;
    expect(map(order, { settings: orderSettings({ optOut: { email: "consent" } }) })).toMatchObject({
      optOutEmail: false,
      optOutSMS: true,
    });
  });
  it("WhatsApp follows its own consent, and SMS consent where Shopify gave none for WhatsApp", () => {
    expect(
      mapFixture("paid-web-customer", { consent: { sms: "subscribed", whatsapp: "not_subscribed" } }),
    ).toMatchObject({ optOutSMS: false, optOutWhatsApp: true });
    expect(
      mapFixture("paid-web-customer", { consent: { sms: "not_subscribed", whatsapp: "subscribed" } }),
    ).toMatchObject({ optOutSMS: true, optOutWhatsApp: false });
    expect(mapFixture("paid-web-customer", { consent: { sms: "subscribed" } })).toMatchObject({
      optOutSMS: false,
      optOutWhatsApp: false,
    });
    expect(
      mapFixture("paid-web-customer", { consent: { sms: "unsubscribed", email: "subscribed" } }).optOutWhatsApp,
    ).toBe(true);
  });
  it("each channel follows its own setting", () => {
    const settings = orderSettings({ optOut: { email: "always", sms: "consent", whatsapp: "never" } });
    const body = mapFixture("paid-web-customer", {
      settings,
      consent: { email: "subscribed", sms: "subscribed", whatsapp: "unsubscribed" },
    });
    expect(body).toMatchObject({ optOutEmail: true, optOutSMS: false, optOutWhatsApp: false });
  });
});

describe("items", () => {
  it("productId is the product key and sku the variant id by default", () => {
    expect(mapFixture("paid-web-customer").items[0]).toMatchObject({
      productId: "8712345677899",
      sku: "45012345678923",
    });
  });
  it("sku is the variant SKU in sku mode, the variant id when the SKU is blank", () => {
    const order = loadOrder("paid-web-customer");
    expect(map(order, { variantKeyMode: "sku" }).items[0]!.sku).toBe("TR2-BLU-42");
    order.line_items![0]!.sku = "  ";
    expect(map(order, { variantKeyMode: "sku" }).items[0]!.sku).toBe("45012345678923");
  });
  it('skuName is the variant title, never "Default Title"', () => {
    const order = loadOrder("paid-web-customer");
    expect(map(order).items[0]!.skuName).toBe("Blue / 42");
    order.line_items![0]!.variant_title = "Default Title";
    expect(map(order).items[0]).not.toHaveProperty("skuName");
  });
  it("custom line items (no product) are left out, the order is still sent", () => {
    const body = mapFixture("custom-and-removed");
    expect(body.items.map((i) => i.productId)).toEqual(["8712346005579", "8712346038347"]);
    const onlyCustom = loadOrder("custom-and-removed");
    onlyCustom.line_items = [onlyCustom.line_items![1]!];
    expect(map(onlyCustom)).toMatchObject({ status: "paid", items: [] });
  });
  it("gift card lines are left out of mixed orders", () => {
    const order = loadOrder("paid-web-customer");
    order.line_items!.push(loadOrder("gift-card-only").line_items![0]!);
    expect(map(order).items.map((i) => i.productId)).toEqual(["8712345677899"]);
  });
  it("a removed line (current_quantity 0) is cancelled", () => {
    expect(mapFixture("custom-and-removed").items[1]).toMatchObject({
      productId: "8712346038347",
      status: "cancelled",
      cancelled: true,
    });
  });
  it("a fully refunded line is cancelled, a partly refunded one is not", () => {
    const order = loadOrder("paid-web-customer");
    const line = order.line_items![0]!;
    line.quantity = 2;
    line.current_quantity = 2;
    order.refunds = [{ refund_line_items: [{ line_item_id: line.id, quantity: 1 }] }];
    expect(map(order).items[0]!.cancelled).toBe(false);
    order.refunds[0]!.refund_line_items!.push({ line_item_id: line.id, quantity: 1 });
    expect(map(order).items[0]).toMatchObject({ cancelled: true, status: "cancelled" });
  });
  it("every item of a cancelled order is cancelled", () => {
    const body = mapFixture("cancelled-refunded");
    expect(body.items.every((i) => i.cancelled && i.status === "cancelled")).toBe(true);
  });
  it("item status follows its own fulfillment: delivered, shipped, or the payment status when unfulfilled", () => {
    expect(mapFixture("partially-fulfilled").items.map((i) => [i.sku, i.status])).toEqual([
      ["45012345777227", "delivered"],
      ["45012345809995", "shipped"],
      ["45012345842763", "paid"],
    ]);
  });
  it("lines of the same variant merge into one item, live lines deciding", () => {
    const body = mapFixture("custom-and-removed");
    expect(body.items.filter((i) => i.productId === "8712346005579")).toHaveLength(1);
    const order = loadOrder("paid-web-customer");
    const first = order.line_items![0]!;
    order.line_items!.push(lineLike(first, { id: 14783254999999, current_quantity: 0 }));
    expect(map(order).items).toEqual([
      expect.objectContaining({ sku: "45012345678923", cancelled: false, status: "paid" }),
    ]);
  });
  it("merged lines take the most advanced status of their live lines", () => {
    const order = loadOrder("partially-fulfilled");
    const delivered = order.line_items![0]!;
    order.line_items!.push(
      lineLike(delivered, { id: 14783254888888, fulfillment_status: null, fulfillable_quantity: 1 }),
    );
    expect(map(order).items[0]).toMatchObject({ sku: "45012345777227", status: "delivered" });
  });

  describe("sellerInfo", () => {
    it("is absent in mode none", () => {
      expect(mapFixture("custom-and-removed").items[0]).not.toHaveProperty("sellerInfo");
    });
    it("is the vendor in mode vendor, with a slug id", () => {
      const body = mapFixture("custom-and-removed", { settings: orderSettings({ seller: { mode: "vendor" } }) });
      expect(body.items.map((i) => i.sellerInfo)).toEqual([
        { id: "atelier-sol", name: "Atelier Sol" },
        { id: "sombreros-sur", name: "Sombreros Sur" },
      ]);
    });
    it("is the named line item property in mode property", () => {
      const settings = orderSettings({ seller: { mode: "property", property: "seller" } });
      const body = mapFixture("custom-and-removed", { settings });
      expect(body.items[0]!.sellerInfo).toEqual({ id: "atelier-sol-madrid", name: "Atelier Sol Madrid" });
      expect(body.items[1]).not.toHaveProperty("sellerInfo");
    });
    it("keeps lines of the same variant from different sellers apart", () => {
      const order = loadOrder("custom-and-removed");
      order.line_items![3]!.properties = [{ name: "Seller", value: "Mercado Norte" }];
      const settings = orderSettings({ seller: { mode: "property", property: "Seller" } });
      expect(map(order, { settings }).items.map((i) => i.sellerInfo?.id)).toEqual([
        "atelier-sol-madrid",
        undefined,
        "mercado-norte",
      ]);
    });
    it("slugs keep non-Latin letters", () => {
      const order = loadOrder("paid-web-customer");
      order.line_items![0]!.vendor = "東京 Crafts";
      const body = map(order, { settings: orderSettings({ seller: { mode: "vendor" } }) });
      expect(body.items[0]!.sellerInfo).toEqual({ id: "東京-crafts", name: "東京 Crafts" });
    });
  });

  describe("productData", () => {
    it("comes from ctx.productData, cleaned of empty values", () => {
      const productData = vi.fn((id: string) =>
        id === "8712345677899"
          ? {
              name: "Trail Runner 2",
              brand: "Northpeak",
              url: "/products/trail-runner-2",
              image: "",
              categories: ["Shoes", " ", "Shoes"],
              gtin: null,
            }
          : undefined,
      );
      const body = mapFixture("paid-web-customer", { productData });
      expect(body.items[0]!.productData).toEqual({
        name: "Trail Runner 2",
        brand: "Northpeak",
        url: "/products/trail-runner-2",
        categories: ["Shoes"],
      });
      expect(productData).toHaveBeenCalledWith("8712345677899");
    });
    it("is omitted when the catalog mirror does not know the product", () => {
      expect(mapFixture("paid-web-customer").items[0]).not.toHaveProperty("productData");
    });
    it("is looked up once per product", () => {
      const productData = vi.fn(() => ({ name: "Linen Shirt" }));
      mapFixture("custom-and-removed", { productData });
      expect(productData).toHaveBeenCalledTimes(2); // the shirt (twice in the order) and the hat
    });
  });
});

describe("exclusions", () => {
  it("test orders → test, unless the shop includes them", () => {
    expect(exclusionReason(loadOrder("test-order"), orderSettings())).toBe("test");
    expect(
      isExcluded(
        mapOrder(loadOrder("test-order"), mapContext({ settings: orderSettings({ exclude: { testOrders: false } }) })),
      ),
    ).toBe(false);
  });
  it("gift-card-only orders → gift_card_only, unless the shop includes them", () => {
    expect(exclusionReason(loadOrder("gift-card-only"), orderSettings())).toBe("gift_card_only");
    const body = mapFixture("gift-card-only", { settings: orderSettings({ exclude: { giftCardOnly: false } }) });
    expect(body.items).toEqual([]);
  });
  it("an order whose only live line is a gift card is gift-card-only", () => {
    const order = loadOrder("gift-card-only");
    order.line_items!.push({ ...loadOrder("paid-web-customer").line_items![0]!, current_quantity: 0 });
    expect(exclusionReason(order, orderSettings())).toBe("gift_card_only");
  });
  it("orders from an excluded source_name → channel", () => {
    const settings = orderSettings({ exclude: { sourceNames: ["POS", "2329312"] } });
    expect(mapOrder(loadOrder("pos-guest"), mapContext({ settings }))).toEqual({ excluded: "channel" });
    expect(isExcluded(mapOrder(loadOrder("paid-web-customer"), mapContext({ settings })))).toBe(false);
  });
});

describe("odd but valid orders never throw", () => {
  it("an order with nothing but an id", () => {
    expect(map({ id: 5923018999999 })).toEqual({
      version: 2,
      orderId: "5923018999999",
      status: "created",
      optOutEmail: false,
      optOutSMS: true,
      optOutWhatsApp: true,
      items: [],
    });
  });
  it("no customer, no addresses, no line items", () => {
    const order = loadOrder("paid-web-customer");
    Object.assign(order, {
      customer: null,
      shipping_address: null,
      billing_address: null,
      line_items: [],
      email: null,
      contact_email: null,
    });
    const body = map(order);
    expect(body).toMatchObject({ status: "paid", items: [] });
    expect(body).not.toHaveProperty("name");
  });
  it("250 line items", () => {
    const order = loadOrder("paid-web-customer");
    const base = order.line_items![0]!;
    order.line_items = Array.from({ length: 250 }, (_, i) =>
      lineLike(base, { id: 14783250000000 + i, product_id: 8712340000000 + (i % 100), variant_id: 45012340000000 + i }),
    );
    const body = map(order);
    expect(body.items).toHaveLength(250);
    expect(new Set(body.items.map((i) => i.productId)).size).toBe(100);
  });
});

describe("orderUpdatedAt", () => {
  it("is updated_at", () => {
    expect(orderUpdatedAt(loadOrder("partially-fulfilled"))).toEqual(new Date("2026-11-17T19:45:30.000Z"));
  });
  it("falls back to created_at, then to the epoch", () => {
    expect(orderUpdatedAt({ created_at: "2026-11-18T09:42:17-05:00" })).toEqual(new Date("2026-11-18T14:42:17.000Z"));
    expect(orderUpdatedAt({ updated_at: "garbage" })).toEqual(new Date(0));
  });
});

describe("orderFingerprint", () => {
  const body = () => mapFixture("partially-fulfilled");
  it("is a sha256 hex digest, stable across key order", () => {
    const a = body();
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as MappedOrder;
    expect(orderFingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(orderFingerprint(reordered)).toBe(orderFingerprint(a));
  });
  it("changes when anything the service sees changes", () => {
    const a = body();
    expect(orderFingerprint({ ...a, status: "delivered" })).not.toBe(orderFingerprint(a));
    expect(orderFingerprint({ ...a, items: a.items.slice(1) })).not.toBe(orderFingerprint(a));
  });
  it("ignores modifiedDate (updated_at moves for changes the service never sees)", () => {
    const a = body();
    expect(orderFingerprint({ ...a, modifiedDate: "2027-01-01T00:00:00.000Z" })).toBe(orderFingerprint(a));
  });
  it("is the same for the same payload mapped twice at different times before any rule depends on it", () => {
    const order = loadOrder("partially-fulfilled");
    const at = (now: string) => orderFingerprint(map(order, { now: new Date(now) }));
    expect(at("2026-11-20T00:00:00Z")).toBe(at(NOW.toISOString()));
  });
});
