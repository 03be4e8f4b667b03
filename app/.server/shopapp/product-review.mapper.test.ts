import { describe, expect, it } from "vitest";
import type { AdminReview } from "../reviews";
import {
  mapReview,
  PRODUCT_REVIEW_KEYS,
  reviewHandle,
  REVIEW_SOURCE,
  type ReviewContext,
} from "./product-review.mapper";

// A review as the service's List reviews answers it with includeOrderData=true (the documented
// fields), and the context the back-sync gives: the order from the orders mirror, the shop's language.

const review = (over: Partial<AdminReview> & Record<string, unknown> = {}): AdminReview =>
  ({
    _id: "6744a1f2c9e77b0012ab34cd",
    customer: "acme",
    userId: "7412345678901",
    name: "Ana P.",
    sku: "8100000000001",
    text: "Fits well, the fabric is thick.\nWould buy again.",
    source: "email",
    status: "published",
    rating: 4,
    helpful: 2,
    unhelpful: 0,
    verified: true,
    recommended: true,
    moderationTags: [],
    created: "2026-11-02T14:05:11.000Z",
    pictures: [
      { _id: "p1", url: "https://cdn.reviews.example/acme/p1.jpg" },
      { _id: "p2", url: "not a url" },
    ],
    attributes: [],
    product: { _id: "x1", customer: "acme", sku: "8100000000001", name: "Linen shirt" },
    orderId: "5400000000123",
    orderName: "#1037",
    variantSku: "49000000000017",
    variantName: "M / Blue",
    __v: 0,
    ...over,
  }) as AdminReview;

const ctx = (over: Partial<ReviewContext> = {}): ReviewContext => ({
  order: { orderId: "5400000000123", customerId: "7412345678901" },
  language: "en",
  seenAt: "2026-11-03T09:00:00.000Z",
  variantKey: "id",
  ...over,
});

describe("product review mapper", () => {
  it("GIVEN a published review with its order and customer THEN every field the standard definition has that we know", () => {
    const m = mapReview(review(), ctx());
    expect(m.kind).toBe("syndicate");
    if (m.kind !== "syndicate") return;
    expect(m.handle).toBe("review-6744a1f2c9e77b0012ab34cd");
    expect(Object.fromEntries(m.fields.map((f) => [f.key, f.value]))).toEqual({
      rating: JSON.stringify({ value: "4", scale_min: "1", scale_max: "5" }),
      title: "",
      edited_at: "",
      merchant_reply: "",
      merchant_replied_at: "",
      body: "Fits well, the fabric is thick.\nWould buy again.",
      submitted_at: "2026-11-02T14:05:11.000Z",
      published_at: "2026-11-03T09:00:00.000Z",
      source: REVIEW_SOURCE,
      author: "gid://shopify/Customer/7412345678901",
      author_display_name: "Ana P.",
      order: "gid://shopify/Order/5400000000123",
      product: "gid://shopify/Product/8100000000001",
      product_variant: "gid://shopify/ProductVariant/49000000000017",
      media_urls: JSON.stringify(["https://cdn.reviews.example/acme/p1.jpg"]),
      language: "en",
    });
  });

  it("GIVEN the service's moderatedAt and a reply THEN published_at is the moderation, and the reply is the merchant's", () => {
    const m = mapReview(
      review({
        moderatedAt: "2026-11-02T20:00:00Z",
        reply: { text: "Thank you, Ana!", created: "2026-11-04T10:00:00Z" },
      }),
      ctx(),
    );
    if (m.kind !== "syndicate") throw new Error(m.reason);
    const f = Object.fromEntries(m.fields.map((x) => [x.key, x.value]));
    expect(f.published_at).toBe("2026-11-02T20:00:00.000Z");
    expect(f.merchant_reply).toBe("Thank you, Ana!");
    expect(f.merchant_replied_at).toBe("2026-11-04T10:00:00.000Z");
  });

  it("GIVEN variants keyed by SKU, no text, no language THEN those fields are sent empty (cleared, never a guess)", () => {
    const m = mapReview(review({ text: "  ", variantSku: "LINEN-M-BLUE" }), ctx({ variantKey: "sku", language: null }));
    if (m.kind !== "syndicate") throw new Error(m.reason);
    const f = Object.fromEntries(m.fields.map((x) => [x.key, x.value]));
    expect([f.product_variant, f.body, f.language]).toEqual(["", "", ""]);
    expect(m.fields.map((x) => x.key)).toEqual([...PRODUCT_REVIEW_KEYS]);
  });

  it("GIVEN a name typed over two lines THEN one line (the display name is a single-line field)", () => {
    const m = mapReview(review({ name: " Ana\n  P. " }), ctx());
    if (m.kind !== "syndicate") throw new Error(m.reason);
    expect(m.fields.find((f) => f.key === "author_display_name")?.value).toBe("Ana P.");
  });

  it.each([
    ["not_published", review({ status: "removed" }), ctx()],
    ["not_published", review({ status: "pending" }), ctx()],
    ["no_product", review({ sku: "LINEN-SHIRT" }), ctx()],
    ["no_order", review({ orderId: null }), ctx({ order: null })],
    ["no_customer", review(), ctx({ order: { orderId: "5400000000123", customerId: null } })],
    ["no_submitted_at", review({ created: undefined }), ctx()],
  ] as const)("GIVEN a review without what Shopify needs THEN it is left out: %s", (reason, r, c) => {
    expect(mapReview(r, c)).toEqual({ kind: "leave-out", handle: reviewHandle(r._id), reason });
  });

  it("GIVEN ids of any shape THEN a handle Shopify accepts (lowercase letters, digits, hyphens), stable", () => {
    expect(reviewHandle("AbC_12/ x")).toBe("review-abc-12-x");
    expect(reviewHandle("AbC_12/ x")).toBe(reviewHandle("AbC_12/ x"));
    expect(reviewHandle("///")).toBe("review-x");
  });
});
