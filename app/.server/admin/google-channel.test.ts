import { describe, expect, it } from "vitest";
import type { FeedStatus } from "../google/feed-status";
import { feedHealth, leftOutPage, pageParam, productAdminHref } from "./google-channel";

// What the Google Shopping section shows, from the feed's recorded status and the product mirror.

const status = (over: Partial<FeedStatus> = {}): FeedStatus => ({
  builtAt: "2026-11-20T08:00:00.000Z",
  fetchedAt: "2026-11-26T08:00:00.000Z",
  parts: 1,
  included: 80,
  excluded: {},
  overSize: 0,
  bytes: 1,
  products: [],
  ...over,
});

describe("the link to fix a product", () => {
  it("GIVEN a Shopify product id THEN the link opens the product in the Shopify admin", () => {
    expect(productAdminHref("7982135000001")).toBe("shopify://admin/products/7982135000001");
    expect(productAdminHref("gid://shopify/Product/42")).toBe("shopify://admin/products/42");
  });

  it("GIVEN an id that is not Shopify's THEN there is no link", () => {
    for (const bad of ["", "12/../orders", "javascript:alert(1)", "42?x=1", " ", "gid://shopify/Order/42"])
      expect(productAdminHref(bad)).toBeNull();
    expect(productAdminHref(null)).toBeNull();
  });
});

describe("the page asked for", () => {
  it("GIVEN the query's page THEN a whole number from 1 is taken, anything else is the first", () => {
    expect(pageParam("3")).toBe(3);
    for (const raw of [null, "", "0", "-2", "1.5", "x", "9999999"]) expect(pageParam(raw)).toBe(1);
  });
});

describe("a page of products left out", () => {
  const products = Array.from({ length: 45 }, (_, i) => ({
    key: `k${String(i).padStart(2, "0")}`,
    reasons: ["no_product_identifier" as const],
  }));

  it("GIVEN mirror rows THEN each product has its title and its admin link; one the app never synced has neither", () => {
    const rows = [
      { productId: "101", sku: "k00", payload: JSON.stringify({ name: "Linen shirt" }) },
      // Refused by the service: no payload, but Shopify's id is known.
      { productId: "102", sku: "k01", payload: null },
    ];
    const p = leftOutPage(products, rows, 1, 20);
    expect(p).toMatchObject({ page: 1, pages: 3, total: 45 });
    expect(p.rows).toHaveLength(20);
    expect(p.rows[0]).toEqual({
      key: "k00",
      title: "Linen shirt",
      reasons: ["no_product_identifier"],
      adminHref: "shopify://admin/products/101",
    });
    expect(p.rows[1]).toMatchObject({ title: null, adminHref: "shopify://admin/products/102" });
    expect(p.rows[2]).toMatchObject({ key: "k02", title: null, adminHref: null });
  });

  it("GIVEN products the mirror cannot name WHEN the service names them THEN they show the service's name, the mirror's title first", () => {
    const rows = [
      { productId: "101", sku: "k00", payload: JSON.stringify({ name: "Linen shirt" }) },
      { productId: "102", sku: "k01", payload: null },
    ];
    const names = new Map([
      ["k00", "Old linen shirt"],
      ["k01", "Wool scarf"],
      ["k02", "Gone candle"],
    ]);
    const p = leftOutPage(products, rows, 1, 20, names);
    expect(p.rows.slice(0, 4).map((r) => [r.title, r.adminHref])).toEqual([
      ["Linen shirt", "shopify://admin/products/101"],
      ["Wool scarf", "shopify://admin/products/102"],
      ["Gone candle", null],
      [null, null],
    ]);
  });

  it("GIVEN the last page or one past it THEN the rest is shown", () => {
    expect(leftOutPage(products, [], 3, 20).rows.map((r) => r.key)).toEqual(["k40", "k41", "k42", "k43", "k44"]);
    expect(leftOutPage(products, [], 9, 20)).toMatchObject({ page: 3 });
    expect(leftOutPage([], [], 2, 20)).toMatchObject({ page: 1, pages: 1, total: 0, rows: [] });
  });
});

describe("what the section leads with", () => {
  const now = new Date("2026-11-27T10:00:00Z");
  it("GIVEN no feed written yet THEN none", () => expect(feedHealth(null, now)).toBe("none"));
  it("GIVEN fewer reviews than Google's minimum of 50 THEN below the minimum", () => {
    expect(feedHealth(status({ included: 49 }), now)).toBe("belowMinimum");
    expect(feedHealth(status({ included: 50 }), now)).toBe("ok");
  });
  it("GIVEN no fetch for more than a month THEN stale", () => {
    expect(feedHealth(status({ fetchedAt: "2026-10-27T09:00:00.000Z" }), now)).toBe("stale");
    expect(feedHealth(status({ fetchedAt: "2026-10-28T11:00:00.000Z" }), now)).toBe("ok");
  });
});
