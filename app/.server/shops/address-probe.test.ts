import { describe, expect, it } from "vitest";
import { probeDelayMs } from "./address-probe";
import { MAX_PAGE, ordersPageSize, productsPageSize } from "../shopify/paged-reads";
import { PAGED_COLLECTIONS, PAGED_LINE_ITEMS, PAGED_VARIANTS } from "../shopify/paged-sizes";

describe("the probe's backoff", () => {
  const limits = { ADMIN_PROBE_MIN_MS: 30_000, ADMIN_PROBE_MAX_MS: 1_800_000 };
  it("starts at the minimum, doubles per refused probe and stops at the maximum", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => probeDelayMs(n, limits))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000, 1_800_000,
    ]);
  });
});

describe("paged read sizes", () => {
  // Shopify's rule: a connection costs 2 + first × (what one node costs), an object 1, a scalar 0.
  const productCost = (first: number, collections: boolean, keys: number) =>
    2 + first * (6 + 2 + PAGED_VARIANTS + (collections ? 2 + PAGED_COLLECTIONS : 0) + (keys ? 2 + 2 * keys : 0));
  it("a products page is the largest whose requested cost stays within Shopify's 1,000-point cap", () => {
    for (const [collections, keys] of [
      [true, 0],
      [false, 0],
      [true, 3],
      [true, 25],
    ] as const) {
      const first = productsPageSize({ collections, metafieldKeys: keys });
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(MAX_PAGE);
      expect(productCost(first, collections, keys)).toBeLessThanOrEqual(1_000);
      expect(productCost(first + 1, collections, keys)).toBeGreaterThan(1_000);
    }
  });
  it("an orders page too, with its 20 fulfillments and first line items", () => {
    const first = ordersPageSize();
    const cost = (n: number) => 2 + n * (1 + 7 + 2 + 1 + 20 * 6 + (2 + PAGED_LINE_ITEMS * 4));
    expect(cost(first)).toBeLessThanOrEqual(1_000);
    expect(cost(first + 1)).toBeGreaterThan(1_000);
  });
});
