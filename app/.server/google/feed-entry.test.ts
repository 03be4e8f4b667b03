import { describe, expect, it } from "vitest";
import { HOSTILE_URLS } from "../../../test/fixtures/hostile-urls";
import { collectionMethodOf, feedEntry, feedTimestamp, productUrlOf } from "./feed-entry";
import { adminReview, feedShop, PRODUCTS } from "./feed.testkit";

describe("feedEntry: a published review of a product in the catalog", () => {
  it("carries the review, the storefront's name, the GTIN, MPN and brand, the product page and the order", () => {
    const r = adminReview({ name: "  Maria S. ", rating: 4, orderId: " 5123456789012 " });
    const result = feedEntry(r, PRODUCTS.tee, feedShop());
    expect(result).toEqual({
      ok: true,
      entry: {
        reviewId: r._id,
        reviewer: { name: "Maria S.", anonymous: false },
        timestamp: "2026-10-02T14:31:07Z",
        content: "Thick cotton, kept its shape after a dozen washes. Runs a little large.",
        reviewUrl: "https://shop.example.com/products/heavyweight-organic-tee",
        rating: 4,
        product: {
          gtins: ["5012345678900"],
          mpns: ["HBT-1042-S-BLA"],
          skus: [],
          brands: ["Harbor & Birch"],
          name: "Heavyweight Organic Tee",
          url: "https://shop.example.com/products/heavyweight-organic-tee",
        },
        verifiedPurchase: true,
        incentivized: null,
        collectionMethod: "post_fulfillment",
        transactionId: "5123456789012",
      },
    });
  });

  it("names a review without a name as the storefront does, in the feed's language, marked anonymous", () => {
    for (const name of [null, "", "   "]) {
      const result = feedEntry(adminReview({ name }), PRODUCTS.tee, feedShop({ anonymousName: "Anônimo" }));
      expect(result.ok && result.entry.reviewer).toEqual({ name: "Anônimo", anonymous: true });
    }
  });

  it("matches a product without GTIN or MPN by the merchant's SKU with its brand", () => {
    const result = feedEntry(adminReview({ sku: PRODUCTS.sensor.sku }), PRODUCTS.sensor, feedShop());
    expect(result.ok && result.entry.product).toMatchObject({
      gtins: [],
      mpns: [],
      skus: ["B796,krt105"],
      brands: ["Digilog.pk"],
    });
  });

  it("GIVEN the service's verified mark THEN is_verified_purchase says it; GIVEN none THEN nothing is said", () => {
    const entry = (over: Parameters<typeof adminReview>[0]) => {
      const result = feedEntry(adminReview(over), PRODUCTS.tee, feedShop());
      return result.ok ? result.entry : null;
    };
    expect(entry({ verified: true })?.verifiedPurchase).toBe(true);
    expect(entry({ verified: false })?.verifiedPurchase).toBe(false);
    expect(entry({ verified: undefined })?.verifiedPurchase).toBeNull();
  });

  it("GIVEN a review without an order (none listed, or blank) THEN it has no transaction id", () => {
    for (const orderId of [undefined, null, "", "  "]) {
      const result = feedEntry(adminReview({ orderId, verified: false }), PRODUCTS.tee, feedShop());
      expect(result.ok && result.entry.transactionId).toBeNull();
    }
  });

  it("GIVEN the merchant's incentive setting THEN every review is marked incentivized when on, nothing said when off", () => {
    const on = feedEntry(adminReview(), PRODUCTS.tee, feedShop({ incentivizedReviews: true }));
    const off = feedEntry(adminReview(), PRODUCTS.tee, feedShop({ incentivizedReviews: false }));
    expect(on.ok && on.entry.incentivized).toBe(true);
    expect(off.ok && off.entry.incentivized).toBeNull();
  });

  it("GIVEN the review's collection channel THEN post_fulfillment for the service's requests, unsolicited for the store's forms", () => {
    for (const source of ["email", "sms", "whatsapp", " Email "])
      expect(collectionMethodOf(source)).toBe("post_fulfillment");
    for (const source of ["web", "store", "sdk"]) expect(collectionMethodOf(source)).toBe("unsolicited");
    // Syndicated from another store, a custom channel, or none: Google's two values would be a guess.
    for (const source of ["syndication", "qr-card", "", null, undefined]) expect(collectionMethodOf(source)).toBeNull();
    const verifiedFromWeb = feedEntry(adminReview({ source: "web", verified: true }), PRODUCTS.tee, feedShop());
    expect(verifiedFromWeb.ok && verifiedFromWeb.entry.collectionMethod).toBe("unsolicited");
  });

  it("builds the product URL on today's primary domain from the handle, not the URL of the sync", () => {
    const result = feedEntry(adminReview(), PRODUCTS.tee, feedShop({ primaryDomain: "https://harborbirch.com/" }));
    expect(result.ok && result.entry.product.url).toBe("https://harborbirch.com/products/heavyweight-organic-tee");
  });
});

describe("feedEntry: the reviews Google would refuse are left out, with every reason", () => {
  const cases = [
    ["pending", adminReview({ status: "pending" }), PRODUCTS.tee, ["not_published"]],
    ["removed", adminReview({ status: "removed" }), PRODUCTS.tee, ["not_published"]],
    ["filtered", adminReview({ status: "filtered" }), PRODUCTS.tee, ["not_published"]],
    ["rating only", adminReview({ text: null }), PRODUCTS.tee, ["empty_content"]],
    ["blank text", adminReview({ text: " \n\t " }), PRODUCTS.tee, ["empty_content"]],
    ["product gone from the catalog", adminReview({ sku: "7982135000000" }), null, ["product_not_in_catalog"]],
    ["draft product", adminReview({ sku: PRODUCTS.tote.sku }), PRODUCTS.tote, ["product_inactive"]],
    ["no identifier", adminReview({ sku: PRODUCTS.giftWrap.sku }), PRODUCTS.giftWrap, ["no_product_identifier"]],
    [
      "MPN without brand",
      adminReview(),
      { ...PRODUCTS.tee, gtin: undefined, brand: undefined },
      ["no_product_identifier"],
    ],
    ["rating 0", adminReview({ rating: 0 }), PRODUCTS.tee, ["invalid_rating"]],
    ["rating 4.5", adminReview({ rating: 4.5 }), PRODUCTS.tee, ["invalid_rating"]],
    ["no date", adminReview({ created: "not a date" }), PRODUCTS.tee, ["invalid_timestamp"]],
    ["blank id", adminReview({ _id: " " }), PRODUCTS.tee, ["no_review_id"]],
    [
      "several at once",
      adminReview({ status: "removed", text: "", sku: PRODUCTS.giftWrap.sku }),
      PRODUCTS.giftWrap,
      ["not_published", "empty_content", "no_product_identifier"],
    ],
  ] as const;
  it.each(cases)("%s", (_, review, product, reasons) => {
    expect(feedEntry(review, product, feedShop())).toEqual({ ok: false, reasons });
  });

  it("leaves out a product whose page is not on the shop's domain or fails the URL rule", () => {
    const noHandle = { ...PRODUCTS.tee, reference: undefined, url: "https://elsewhere.example/products/tee" };
    expect(feedEntry(adminReview(), noHandle, feedShop())).toEqual({ ok: false, reasons: ["no_product_url"] });
    for (const domain of HOSTILE_URLS) {
      const result = feedEntry(adminReview(), PRODUCTS.tee, feedShop({ primaryDomain: domain }));
      if (result.ok)
        expect(result.entry.product.url).toMatch(/^https:\/\/[^/\\@\s]+\/products\/heavyweight-organic-tee$/);
      else expect(result.reasons).toEqual(["no_product_url"]);
    }
  });
});

describe("feed values", () => {
  it("writes timestamps as UTC xs:dateTime in whole seconds", () => {
    expect(feedTimestamp("2026-10-02T11:31:07.512-03:00")).toBe("2026-10-02T14:31:07Z");
    expect(feedTimestamp("")).toBeNull();
  });

  it("keeps http product URLs only where the URL policy allows them (the local demo)", () => {
    const shop = feedShop({ primaryDomain: "http://127.0.0.1:8090" });
    expect(productUrlOf(PRODUCTS.tee, shop)).toBeNull();
    expect(productUrlOf(PRODUCTS.tee, { ...shop, urlPolicy: { allowHttp: true } })).toBe(
      "http://127.0.0.1:8090/products/heavyweight-organic-tee",
    );
  });
});
