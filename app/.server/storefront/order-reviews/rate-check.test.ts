import { describe, expect, it } from "vitest";
import { modalProduct, parseRateCheckQuery, rateCheckAnswer, reviewedPanel } from "./rate-check";
import type { ShopOrder } from "./customer-orders";

const order: ShopOrder = {
  id: "5001",
  name: "#1002",
  processedAt: "2026-11-01T10:00:00Z",
  cancelled: false,
  fulfilled: true,
  customerId: "7001",
  lines: [
    { productId: "11", title: "Merino Tote", handle: "merino-tote", image: "https://cdn.shopify.com/a.jpg" },
    { productId: "12", title: "Linen Apron", handle: "linen-apron", image: "javascript:alert(1)" },
  ],
};
const status = [
  { sku: "11", active: false, review: { rating: 4, text: "Good" }, product: null },
  { sku: "12", active: true, review: null, product: null },
];
const q = (s: string) => parseRateCheckQuery(new URLSearchParams(s));

describe("parseRateCheckQuery", () => {
  it("GIVEN the modal's parameters THEN they are read; anything else is refused", () => {
    expect(q("order=%231002&token=tok_12345678&sku=11&shop=x.myshopify.com")).toEqual({
      ok: true,
      query: { order: "#1002", token: "tok_12345678", sku: "11", locale: "en" },
    });
    expect(q("order=1&token=tok_12345678&name=x")).toMatchObject({ ok: false });
    expect(q("order=%3Cb%3E&token=tok_12345678")).toMatchObject({ ok: false });
    expect(q("order=1&token=short")).toMatchObject({ ok: false });
    expect(q("order=1&token=tok_12345678&sku=a%20b")).toMatchObject({ ok: false });
  });
});

describe("rateCheckAnswer", () => {
  it("GIVEN a reviewed product asked by its owner THEN Shopify's names, the stars, and the account as its place", () => {
    const a = rateCheckAnswer({ sku: "11" }, status, order, "7001");
    expect(a).toEqual({
      name: "#1002",
      products: [
        {
          sku: "11",
          title: "Merino Tote",
          url: "/products/merino-tote",
          image: "https://cdn.shopify.com/a.jpg",
          reviewed: true,
          rating: 4,
        },
      ],
      reviewed: true,
      account: true,
    });
  });

  it("GIVEN the whole order asked by a guest THEN not all reviewed, unsafe images dropped, no account", () => {
    const a = rateCheckAnswer({ sku: null }, status, order, "");
    expect(a.reviewed).toBe(false);
    expect(a.account).toBe(false);
    expect(a.products.map((p) => [p.sku, p.reviewed, p.image])).toEqual([
      ["11", true, "https://cdn.shopify.com/a.jpg"],
      ["12", false, null],
    ]);
  });

  it("GIVEN an order Shopify does not have THEN the service's status stands without names", () => {
    const a = rateCheckAnswer({ sku: "11" }, status, null, "7001");
    expect(a).toMatchObject({ name: null, reviewed: true, account: false, products: [{ title: null, url: null }] });
  });
});

describe("reviewedPanel", () => {
  it("GIVEN a reviewed product THEN the panel names its stars and where the review is kept; nothing when not all reviewed", () => {
    const own = rateCheckAnswer({ sku: "11" }, status, order, "7001");
    expect(reviewedPanel(own, "11")).toEqual({ all: false, rating: 4, link: { kind: "account", path: "" } });
    const guest = rateCheckAnswer({ sku: "11" }, status, order, "");
    expect(reviewedPanel(guest, "11")).toEqual({
      all: false,
      rating: 4,
      link: { kind: "product", path: "/products/merino-tote" },
    });
    expect(reviewedPanel(rateCheckAnswer({ sku: null }, status, order, ""), null)).toBeNull();
  });
});

describe("modalProduct", () => {
  it("GIVEN the product asked THEN that one if the service lists it on the order, else the order's first; none for an empty order", () => {
    expect(modalProduct("12", status)).toBe("12");
    expect(modalProduct(null, status)).toBe("11");
    expect(modalProduct("99", status)).toBe("11");
    expect(modalProduct("11", [])).toBeNull();
  });
});
