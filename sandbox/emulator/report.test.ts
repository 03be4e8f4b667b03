import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { product, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
let day1 = "";
let day2 = "";

beforeAll(async () => {
  // The clock moves 10 days below; a year-long token keeps the admin calls authorized.
  t = await setup({ tokenTtlSeconds: 365 * 86_400 });
  await t.admin("POST", "/products/batch", {
    products: [
      product("A", { categories: ["Shoes"] }),
      product("B", { categories: ["Shoes"] }),
      product("C", { categories: ["Hats"] }),
      product("D", { categories: ["Hats"] }),
    ],
  });
  const review = async (sku: string, rating: number, approve: boolean | null, extra: Record<string, unknown> = {}) => {
    const res = await t.client("POST", `/${sku}/review`, {
      userId: `u-${sku}-${rating}`,
      email: "x@example.com",
      rating,
      text: "t",
      ...extra,
    });
    if (approve !== null) await t.admin("PUT", `/reviews/${res.body._id}/moderate`, { approved: approve });
    return res.body._id as string;
  };
  await review("A", 5, true);
  await review("A", 5, true);
  await review("A", 4, true, { text: "" });
  t.emu.control.advanceClock(10 * 86_400_000);
  await review("B", 2, true);
  await review("B", 3, null);
  await review("C", 4, null);
  const created = t.emu.control
    .state(t.customer)
    .reviews.map((r) => r.created.slice(0, 10))
    .sort();
  day1 = created[0];
  day2 = created[created.length - 1];
});
afterAll(() => t.emu.close());

const report = (q = "") => t.admin("GET", `/products/report${q}`);
const skus = (res: { body: { result: { sku: string }[] } }) => res.body.result.map((r) => r.sku);

describe("GET /{customer}/products/report", () => {
  it("answers {result, total} with report rows from the aggregates (default MoreReviews)", async () => {
    const res = await report();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(skus(res)).toEqual(["A", "B", "C"]);
    expect(res.body.result[0]).toEqual({
      customer: "demo-store",
      sku: "A",
      name: "Product A",
      categories: ["Shoes"],
      reviews: {
        reviewCount: 3,
        aggregateRating: 4.67,
        publishedCount: 3,
        publishedAggregateRating: 4.67,
        withPictures: 0,
        withVideo: 0,
        withText: 2,
      },
    });
    expect(res.body.result[2].reviews).toMatchObject({
      reviewCount: 1,
      aggregateRating: 4,
      publishedCount: 0,
      publishedAggregateRating: null,
    });
  });

  it("sorts by every order value", async () => {
    const expected: Record<string, string[]> = {
      MoreReviews: ["A", "B", "C"],
      LessReviews: ["C", "B", "A"],
      MostPositive: ["A", "C", "B"],
      MostNegative: ["B", "C", "A"],
      PositiveMoreReviews: ["A", "C", "B"],
      PositiveLessReviews: ["A", "C", "B"],
      NegativeMoreReviews: ["B", "C", "A"],
      NegativeLessReviews: ["B", "C", "A"],
    };
    for (const [order, want] of Object.entries(expected)) {
      expect(skus(await report(`?order=${order}`)), order).toEqual(want);
    }
    expect((await report("?order=Best")).status).toBe(400);
  });

  it("filters by sku, repeated category and onlyPublished; pages with limit and skip", async () => {
    expect(skus(await report("?sku=B"))).toEqual(["B"]);
    expect(skus(await report("?category=Shoes"))).toEqual(["A", "B"]);
    expect(skus(await report("?category=Shoes&category=Hats"))).toEqual(["A", "B", "C"]);
    const published = await report("?onlyPublished=true");
    expect(skus(published)).toEqual(["A", "B"]);
    expect(published.body.result[1].reviews).toMatchObject({ reviewCount: 1, aggregateRating: 2, publishedCount: 1 });
    const page = await report("?limit=1&skip=1");
    expect(page.body).toMatchObject({ total: 3, result: [{ sku: "B" }] });
  });

  it("computes live from the reviews in range when dateFrom and dateTo are both sent", async () => {
    expect(day1).not.toBe(day2);
    const first = await report(`?dateFrom=${day1}&dateTo=${day1}`);
    expect(skus(first)).toEqual(["A"]);
    const second = await report(`?dateFrom=${day2}&dateTo=${day2}&onlyPublished=true`);
    expect(skus(second)).toEqual(["B"]);
    const both = await report(`?dateFrom=${day1}&dateTo=${day2}`);
    expect(both.body.total).toBe(3);
    // Only one bound: the full-history aggregates are used.
    expect((await report(`?dateFrom=${day2}`)).body.total).toBe(3);
    expect((await report(`?dateFrom=${day2}&dateTo=${day1}`)).status).toBe(400);
  });

  it("keeps the aggregates current when a review is moderated", async () => {
    const pending = t.emu.control.state(t.customer).reviews.find((r) => r.sku === "C")!;
    await t.admin("PUT", `/reviews/${pending._id}/moderate`, { approved: true });
    const res = await report("?sku=C");
    expect(res.body.result[0].reviews).toMatchObject({ publishedCount: 1, publishedAggregateRating: 4 });
  });
});
