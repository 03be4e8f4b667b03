import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReviewsClient, ReviewsPermanentError } from "../../app/.server/reviews";
import { type ContractTarget, EMULATED, clientFor, openTarget, uid, failure } from "./target";

// Questions (Client API submit/read, Admin list), NPS survey responses and the product report.

let target: ContractTarget;
let client: ReviewsClient;
let raw: ReviewsClient;
let sku: string;

beforeAll(async () => {
  target = await openTarget();
  client = clientFor(target.account);
  raw = clientFor(target.account, { validateRequests: false });
  sku = uid("jacket");
  await client.admin.sendCatalogBatch([{ sku, name: "Rain jacket", categories: ["Outerwear"], brand: "Acme Outdoor" }]);
});
afterAll(async () => {
  await target?.close();
});

describe("questions", () => {
  it("a submitted question reaches the admin list; the storefront list shows published ones only", async () => {
    const text = `Is the hood removable? (${uid("q")})`;
    await client.storefront.askQuestion(sku, { userId: "user-31", email: "asker@example.com", text });

    const all = await client.admin.listQuestions({ sku, status: "all" });
    expect(all.total).toBeGreaterThanOrEqual(1);
    const mine = all.results.find((q) => q.text === text);
    expect(mine).toBeDefined();
    expect(mine!._id).toEqual(expect.any(String));
    expect(["published", "removed", "filtered", "sent"]).toContain(mine!.status);

    const storefront = await client.storefront.getQuestions(sku);
    for (const q of storefront) expect(q._id).toEqual(expect.any(String));
    if (mine!.status !== "published") expect(storefront.map((q) => q._id)).not.toContain(mine!._id);
  });

  it("lists with sku, status and skip", async () => {
    const page = await client.admin.listQuestions({ sku, status: "all", skip: 1000 });
    expect(page.results).toEqual([]);
    expect(page.total).toBeGreaterThanOrEqual(1);
    const published = await client.admin.listQuestions({ sku });
    for (const q of published.results) expect(q.status).toBe("published");
  });
});

describe("NPS responses", () => {
  it("answers a list and total for every type", async () => {
    for (const type of ["all", "promoters", "neutral", "detractors"] as const) {
      const list = await client.admin.listNpsResponses({
        type,
        sort: "rating,-1",
        from: "2020-01-01",
        to: "2030-12-31",
      });
      expect(Array.isArray(list.results)).toBe(true);
      expect(list.total).toBeGreaterThanOrEqual(list.results.length);
      for (const r of list.results) {
        if (typeof r.rating !== "number") continue;
        if (type === "promoters") expect(r.rating).toBeGreaterThanOrEqual(9);
        if (type === "neutral") expect([7, 8]).toContain(r.rating);
        if (type === "detractors") expect(r.rating).toBeLessThanOrEqual(6);
      }
    }
  });
});

describe("product report", () => {
  it("reports review counts and averages per product; publishedAggregateRating null until one is published", async () => {
    const a = await client.storefront.submitReview(sku, {
      userId: "u-r1",
      email: "r1@example.com",
      rating: 4,
      text: "Dry all day.",
    });
    await client.storefront.submitReview(sku, {
      userId: "u-r2",
      email: "r2@example.com",
      rating: 2,
      text: "Seams leak.",
    });

    const before = await client.admin.getProductReport({ sku });
    expect(before.total).toBe(1);
    expect(before.result[0]).toMatchObject({ sku, name: "Rain jacket" });
    expect(before.result[0].reviews).toMatchObject({
      reviewCount: 2,
      aggregateRating: 3,
      publishedCount: 0,
      publishedAggregateRating: null,
    });

    await client.admin.moderateReview(a._id, true);
    const after = await client.admin.getProductReport({ sku });
    expect(after.result[0].reviews).toMatchObject({ reviewCount: 2, publishedCount: 1, publishedAggregateRating: 4 });

    const onlyPublished = await client.admin.getProductReport({ sku, onlyPublished: true });
    expect(onlyPublished.result[0].reviews).toMatchObject({ reviewCount: 1, aggregateRating: 4 });

    const today = new Date().toISOString().slice(0, 10);
    const ranged = await client.admin.getProductReport({
      sku,
      dateFrom: "2020-01-01",
      dateTo: today,
      order: "MostPositive",
    });
    expect(ranged.result[0].reviews.reviewCount).toBe(2);
  });

  it("accepts every documented order, limit, skip and repeated category", async () => {
    for (const order of [
      "MoreReviews",
      "LessReviews",
      "MostPositive",
      "MostNegative",
      "PositiveMoreReviews",
      "PositiveLessReviews",
      "NegativeMoreReviews",
      "NegativeLessReviews",
    ] as const) {
      const r = await client.admin.getProductReport({ order, limit: 5, skip: 0, category: ["Outerwear", "Footwear"] });
      expect(r.result.length).toBeLessThanOrEqual(5);
      expect(r.total).toBeGreaterThanOrEqual(r.result.length);
    }
  });

  it("an invalid order value is a permanent error (status not documented)", async () => {
    const err = await failure(raw.admin.getProductReport({ order: "Sideways" as never }));
    expect(err).toBeInstanceOf(ReviewsPermanentError);
  });
});

if (EMULATED) {
  describe("with the emulator's demo data", () => {
    it("NPS responses come back under `results` with scores by type", async () => {
      const all = await client.admin.listNpsResponses({ type: "all" });
      expect(all.results.length).toBeGreaterThan(0);
      const promoters = await client.admin.listNpsResponses({ type: "promoters" });
      for (const r of promoters.results) expect(r.rating).toBeGreaterThanOrEqual(9);
      expect(promoters.total).toBeLessThanOrEqual(all.total);
    });

    it("an answered question shows on the storefront with its reply", async () => {
      const text = `Does it pack small? (${uid("q")})`;
      await client.storefront.askQuestion(sku, { userId: "user-32", email: "asker2@example.com", text });
      const { results } = await client.admin.listQuestions({ sku, status: "all" });
      const mine = results.find((q) => q.text === text)!;
      await target.control!.answerQuestion(mine._id, "Yes, into its own pocket.");
      const storefront = await client.storefront.getQuestions(sku);
      expect(storefront.find((q) => q._id === mine._id)).toMatchObject({
        text,
        reply: expect.objectContaining({ text: "Yes, into its own pocket." }),
      });
    });
  });
}
