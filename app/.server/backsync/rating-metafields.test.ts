import { describe, expect, it } from "vitest";
import type { ProductReportRow } from "../reviews";
import type { SummaryResponse } from "../reviews";
import { drifted } from "./reconcile";
import { chunk, digestOf, productMetafieldIds, productMetafields } from "./rating-metafields";
import { buildSnapshot, type Snapshot } from "../theme";

// The metafields written per product and the diffing that decides whether to write them.

const summary = (avg: number, count: number, texts: string[] = ["Great"]): SummaryResponse =>
  ({
    reviews: [
      {
        aggregateRating: avg,
        reviewCount: count,
        recommendedPercentage: 80,
        reviews: texts.map((text, i) => ({
          _id: `r${i}`,
          name: "Ana P.",
          created: "2026-10-01T12:00:00.000Z",
          rating: 5,
          text,
          verified: true,
          helpful: 1,
          unhelpful: 0,
          pictures: [],
        })),
      },
    ],
    composition: [{ _id: 5, count }],
  }) as unknown as SummaryResponse;

const snap = (avg: number, count: number, texts?: string[]): Snapshot =>
  buildSnapshot("8100000000001", summary(avg, count, texts), { pageSize: 10 });

describe("product metafields", () => {
  it("GIVEN a snapshot THEN the snapshot JSON, the standard rating (one decimal, scale 1–5), the count and the filterable decimal, on the product", () => {
    const m = productMetafields("8100000000001", snap(4.46, 12));
    expect(m.map((x) => [x.ownerId, x.namespace, x.key, x.type])).toEqual([
      ["gid://shopify/Product/8100000000001", "$app:reviews", "snapshot", "json"],
      ["gid://shopify/Product/8100000000001", "reviews", "rating", "rating"],
      ["gid://shopify/Product/8100000000001", "reviews", "rating_count", "number_integer"],
      ["gid://shopify/Product/8100000000001", "$app:reviews", "rating_value", "number_decimal"],
    ]);
    expect(JSON.parse(m[1].value)).toEqual({ value: "4.5", scale_min: "1.0", scale_max: "5.0" });
    expect(m[2].value).toBe("12");
    // The same rounding as the stars, so a "4 and up" filter agrees with what the card shows.
    expect(m[3].value).toBe("4.5");
    expect(JSON.parse(m[0].value)).toMatchObject({ avg: 4.5, count: 12 });
    expect(productMetafieldIds("8100000000001").map((x) => x.key)).toEqual([
      "snapshot",
      "rating",
      "rating_count",
      "rating_value",
    ]);
  });

  it("GIVEN the same data THEN the same digest; any rendered change (a review's text) changes it", () => {
    const a = digestOf(productMetafields("1", snap(4.2, 3)));
    expect(digestOf(productMetafields("1", snap(4.2, 3)))).toBe(a);
    expect(digestOf(productMetafields("1", snap(4.2, 3, ["Great!"])))).not.toBe(a);
    expect(digestOf(productMetafields("1", snap(4.2, 4)))).not.toBe(a);
  });

  it("GIVEN 26 metafields THEN two calls of 25 and 1", () => {
    expect(
      chunk(
        Array.from({ length: 26 }, (_, i) => i),
        25,
      ).map((c) => c.length),
    ).toEqual([25, 1]);
  });
});

describe("reconciliation drift", () => {
  const row = (publishedCount: number, publishedAggregateRating: number | null): ProductReportRow =>
    ({
      sku: "1",
      reviews: {
        reviewCount: publishedCount,
        aggregateRating: publishedAggregateRating,
        publishedCount,
        publishedAggregateRating,
      },
    }) as ProductReportRow;
  const written = (count: number, average: number) => ({
    productId: "1",
    digest: "d",
    count,
    average,
    status: "written" as const,
  });

  it.each([
    ["same count and average", row(12, 4.46), written(12, 4.5), false],
    ["average only rounded differently", row(12, 4.449), written(12, 4.4), false],
    ["a review more", row(13, 4.46), written(12, 4.5), true],
    ["average moved", row(12, 4.2), written(12, 4.5), true],
    ["never written", row(3, 4), undefined, true],
    ["gone to zero published", row(0, null), written(2, 4), true],
    ["product gone from Shopify", row(3, 4), { ...written(0, 0), status: "missing" as const }, false],
  ])("GIVEN %s THEN drifted is %s", (_name, r, w, want) => {
    expect(drifted(r, w)).toBe(want);
  });
});
