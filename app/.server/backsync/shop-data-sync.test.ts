import { describe, expect, it } from "vitest";
import { buildShopData, CAROUSEL_TEXT_MAX } from "./shop-data-sync";

const base = {
  proxyPath: "/apps/reviews",
  topRated: { skus: ["8100000000001"], badgeLabel: "Best of the month" },
  rateUrl: "https://rate.example/",
  customer: "acme",
};
const review = (i: number, text: string, rating = 5) => ({
  _id: `sr${i}`,
  rating,
  text,
  name: " Ana S. ",
  created: `2026-10-0${i}T10:00:00Z`,
});

describe("the shop's app data", () => {
  it("keeps the store average and count, the top-rated badge, the rating page without a trailing slash, and at most ten carousel reviews with long texts cut at a word", () => {
    const long = `${"word ".repeat(100)}end`;
    const data = buildShopData({
      ...base,
      storeSummary: [{ count: 12, avgRating: 4.567, enableStoreReview: true }],
      carousel: [review(1, long), ...Array.from({ length: 11 }, (_, i) => review(i + 2, "Great."))],
    });
    expect(data).toMatchObject({
      store: { avg: 4.6, count: 12 },
      topRated: { skus: ["8100000000001"], label: "Best of the month" },
      rateUrl: "https://rate.example",
      customer: "acme",
    });
    expect(data.carousel).toHaveLength(10);
    expect(data.carousel[0]).toMatchObject({ id: "sr1", name: "Ana S.", rating: 5, date: "2026-10-01T10:00:00Z" });
    expect(data.carousel[0]!.text.length).toBeLessThanOrEqual(CAROUSEL_TEXT_MAX + 1);
    expect(data.carousel[0]!.text).toMatch(/word…$/);
  });

  it("shows no store reviews (and no carousel) when the account has none or has them switched off", () => {
    expect(
      buildShopData({
        ...base,
        storeSummary: [{ count: 3, avgRating: 4, enableStoreReview: false }],
        carousel: [review(1, "Hi")],
      }),
    ).toMatchObject({ store: null, carousel: [] });
    expect(buildShopData({ ...base, storeSummary: [], carousel: [] })).toMatchObject({ store: null, carousel: [] });
  });
});
