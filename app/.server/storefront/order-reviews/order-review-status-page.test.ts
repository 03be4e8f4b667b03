import { describe, expect, it } from "vitest";
import { legacyOrderId, thankYouAnswer } from "./extension-review-status.server";
import type { ShopOrder } from "./customer-orders";
import {
  oneReviewPerProduct,
  parseStatusQuery,
  serviceOrderId,
  statusOrder,
  type ServiceOrderReviewStatus,
} from "./order-review-status-page";

// Shopify's order beside the service's answer: what the buyer sees per product.

const order: ShopOrder = {
  id: "5923018113099",
  name: "#1042",
  processedAt: "2026-11-20T14:03:00Z",
  cancelled: false,
  fulfilled: true,
  customerId: "7001",
  lines: [
    {
      productId: "8100000000001",
      title: "Merino Tote Bag",
      handle: "merino-tote-bag",
      image: "https://cdn.shopify.com/s/files/1/merino-tote-bag.jpg",
    },
    { productId: "8100000000001", title: "Merino Tote Bag", handle: "merino-tote-bag", image: null },
    { productId: "8100000000002", title: "Handmade Mug", handle: "handmade-mug", image: null },
    { productId: "8100000000003", title: "Café Mug", handle: "cafe-mug", image: null },
    { productId: null, title: "Gift wrapping", handle: null, image: null },
  ],
  moreLines: false,
};
const service: ServiceOrderReviewStatus = {
  orderId: "5923018113099",
  verificationTokenId: "tok-1",
  products: [
    { sku: "8100000000001", active: false, review: { rating: 4, text: "Roomy", created: "2026-11-22T10:00:00Z" } },
    { sku: "8100000000002", active: true, review: null },
  ],
};
const href = (p: { verificationTokenId: string; orderId: string; sku: string }) =>
  `https://rate.example/rate/acme/${p.verificationTokenId}/${p.orderId}?sku=${p.sku}`;

describe("an order's review status", () => {
  it("shows each product once: rated with its stars and words, to rate with the order's token, or neither when the service lists it not", () => {
    const s = statusOrder(order, service, href);
    expect(s).toMatchObject({ id: "5923018113099", name: "#1042", toRate: 1, fulfilled: true });
    expect(s.items.map((i) => [i.title, i.state])).toEqual([
      ["Merino Tote Bag", "reviewed"],
      ["Handmade Mug", "rate"],
      ["Café Mug", "none"],
      ["Gift wrapping", "none"],
    ]);
    expect(s.items[0]).toMatchObject({
      url: "/products/merino-tote-bag",
      review: { rating: 4, text: "Roomy" },
      rate: null,
    });
    expect(s.items[1]!.rate).toEqual({
      order: "5923018113099",
      token: "tok-1",
      sku: "8100000000002",
      href: "https://rate.example/rate/acme/tok-1/5923018113099?sku=8100000000002",
    });
  });

  it("GIVEN a history page showing an order's first lines THEN the products it does not show count to rate and say how many Show all brings", () => {
    const first = { ...order, lines: order.lines.slice(2, 3), moreLines: true };
    const s = statusOrder(first, service, href);
    expect(s.items.map((i) => i.sku)).toEqual(["8100000000002"]);
    // The service lists the tote bag (reviewed) too: 2 products, 1 to rate, none of them hidden.
    expect(s).toMatchObject({ toRate: 1, more: { count: 2 }, hiddenToRate: [] });
    const third = { sku: "8100000000003", active: true, review: null };
    const wider = statusOrder(first, { ...service, products: [...service.products, third] }, href);
    expect(wider).toMatchObject({ toRate: 2, more: { count: 3 }, hiddenToRate: ["8100000000003"] });
    // Reviewed elsewhere: no longer left to rate, though still among the order's products.
    expect(oneReviewPerProduct([wider], new Set(["8100000000003"]))[0]).toMatchObject({ toRate: 1, hiddenToRate: [] });
    // Not at the service: how many is unknown. All lines shown: nothing more.
    expect(statusOrder(first, undefined, href).more).toEqual({ count: null });
    expect(statusOrder(order, service, href)).toMatchObject({ more: null, hiddenToRate: [] });
  });

  it("asks to wait for an order not fulfilled yet: nothing to rate before it arrives", () => {
    const s = statusOrder({ ...order, fulfilled: false }, service, href);
    expect(s.items.map((i) => i.state)).toEqual(["reviewed", "waiting", "none", "none"]);
    expect(s.toRate).toBe(0);
    expect(s.items.every((i) => i.rate === null)).toBe(true);
  });

  it("offers nothing to rate on a cancelled order, or one the service does not hold", () => {
    expect(statusOrder({ ...order, cancelled: true }, service, href).toRate).toBe(0);
    expect(statusOrder(order, undefined, href).items.every((i) => i.state === "none")).toBe(true);
  });

  it("names the order as the order sync does", () => {
    expect(serviceOrderId(order, "id")).toBe("5923018113099");
    expect(serviceOrderId(order, "name")).toBe("#1042");
  });
});

describe("the order review status query", () => {
  it("takes an order id or a cursor, and says what is wrong otherwise", () => {
    expect(
      parseStatusQuery(new URLSearchParams("order=5923018113099&locale=pt-BR&shop=x.myshopify.com&signature=s")),
    ).toEqual({ ok: true, query: { order: "5923018113099", after: null, locale: "pt-BR" } });
    expect(parseStatusQuery(new URLSearchParams("after=eyJpZCI6MX0"))).toMatchObject({
      ok: true,
      query: { order: null, after: "eyJpZCI6MX0", locale: "en" },
    });
    expect(parseStatusQuery(new URLSearchParams("order=12&after=x"))).toEqual({
      ok: false,
      message: "give order or after, not both",
    });
    expect(parseStatusQuery(new URLSearchParams("order=gid://shopify/Order/1"))).toMatchObject({ ok: false });
    expect(parseStatusQuery(new URLSearchParams("page=2"))).toMatchObject({
      ok: false,
      message: expect.stringContaining("page is not a parameter"),
    });
  });
});

describe("the extensions' order id and thank-you answer", () => {
  it("reads the ids the pages give", () => {
    expect(legacyOrderId("gid://shopify/Order/5923018113099")).toBe("5923018113099");
    expect(legacyOrderId("gid://shopify/OrderIdentity/5923018113099")).toBe("5923018113099");
    expect(legacyOrderId("5923018113099")).toBe("5923018113099");
    expect(legacyOrderId("gid://shopify/Customer/1")).toBeNull();
    expect(legacyOrderId(null)).toBeNull();
  });

  it("offers rating on the thank-you page only for a fulfilled order with something left to rate", () => {
    const s = statusOrder(order, service, href);
    expect(thankYouAnswer(s)).toEqual({ state: "rate", order: s });
    expect(thankYouAnswer({ ...s, fulfilled: false })).toEqual({ state: "later" });
    expect(thankYouAnswer({ ...s, toRate: 0 })).toEqual({ state: "later" });
    expect(thankYouAnswer(null)).toEqual({ state: "later" });
  });
});
