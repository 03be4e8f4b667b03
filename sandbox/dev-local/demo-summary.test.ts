import { describe, expect, it } from "vitest";
import { addressesUnder, emptyAddresses, formatSummary, SUMMARY_HEADING, type DemoAddresses } from "./demo-summary";

const addresses = (): DemoAddresses => ({
  // Given out of order on purpose: the block's order is the formatter's, not the caller's.
  operator: [{ label: "queue dashboard", url: "http://127.0.0.1:8786/ops/queues" }],
  account: [
    { label: "Rate your orders", url: "http://127.0.0.1:8789/account/login-as?customer=7001&return=%2Faccount" },
  ],
  storefront: [
    {
      label: "product page",
      url: "http://127.0.0.1:8789/products/mug",
      notes: ["write a review: log in as Ana", "questions further down"],
    },
    { label: "all products", url: "http://127.0.0.1:8789/collections/all" },
  ],
  admin: [
    { label: "demo-shop", url: "http://127.0.0.1:3000/app?shop=demo-shop" },
    { label: "fresh-shop", url: "http://127.0.0.1:3000/app?shop=fresh-shop" },
  ],
});

describe("the summary dev:local ends with", () => {
  it("GIVEN the demo's addresses THEN a heading, then admin, storefront, account and operator in that order, each address on a line of its own under its label", () => {
    expect(formatSummary(addresses())).toEqual([
      SUMMARY_HEADING,
      "Embedded admin (as Shopify's admin would frame it)",
      "  demo-shop",
      "    http://127.0.0.1:3000/app?shop=demo-shop",
      "  fresh-shop",
      "    http://127.0.0.1:3000/app?shop=fresh-shop",
      "Storefront",
      "  product page",
      "    http://127.0.0.1:8789/products/mug",
      "    · write a review: log in as Ana",
      "    · questions further down",
      "  all products",
      "    http://127.0.0.1:8789/collections/all",
      "Customer account",
      "  Rate your orders",
      "    http://127.0.0.1:8789/account/login-as?customer=7001&return=%2Faccount",
      "Operator",
      "  queue dashboard",
      "    http://127.0.0.1:8786/ops/queues",
    ]);
  });

  it("GIVEN a footer THEN it closes the block; every address comes after the heading", () => {
    const lines = formatSummary(addresses(), "Ctrl-C stops everything");
    expect(lines.at(-1)).toBe("Ctrl-C stops everything");
    const urls = lines.flatMap((l, i) => (/^\s+http:\/\//.test(l) ? [i] : []));
    expect(urls).toHaveLength(6);
    expect(Math.min(...urls)).toBeGreaterThan(lines.indexOf(SUMMARY_HEADING));
  });

  it("GIVEN a group with no address (--no-demo) THEN that group is left out, not printed empty", () => {
    const only = { ...emptyAddresses(), operator: [{ label: "app server", url: "http://127.0.0.1:3000" }] };
    expect(formatSummary(only)).toEqual([SUMMARY_HEADING, "Operator", "  app server", "    http://127.0.0.1:3000"]);
  });

  it("GIVEN an origin THEN the addresses under it, from every group (the pages the browser check opens)", () => {
    expect(addressesUnder(addresses(), "http://127.0.0.1:8789")).toEqual([
      "http://127.0.0.1:8789/products/mug",
      "http://127.0.0.1:8789/collections/all",
      "http://127.0.0.1:8789/account/login-as?customer=7001&return=%2Faccount",
    ]);
    // A port that merely starts the same is another origin.
    expect(addressesUnder(addresses(), "http://127.0.0.1:878")).toEqual([]);
  });

  it("GIVEN an address that is no page (the Google feed) THEN it is printed but the browser check leaves it out", () => {
    const feed = {
      label: "Google feed",
      url: "http://127.0.0.1:8789/apps/reviews/google-feed.xml",
      page: false as const,
    };
    const withFeed = { ...addresses(), storefront: [...addresses().storefront, feed] };
    expect(formatSummary(withFeed)).toContain("    http://127.0.0.1:8789/apps/reviews/google-feed.xml");
    expect(addressesUnder(withFeed, "http://127.0.0.1:8789")).not.toContain(feed.url);
  });
});
