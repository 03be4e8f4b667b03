import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../sandbox/emulator/server";
import { createReviewsClient, type ReviewsClient } from "../reviews";
import { SNAPSHOT_MAX_BYTES, buildSnapshot, snapshotBytes, snapshotSchema } from "./snapshot";

// The snapshot builder on summaries as the service answers them: the emulator over HTTP, its demo
// seed (photos, a video, replies, a syndicated review with its original text, topics, an AI
// summary), and products given 0, 1 and 500 reviews or very long texts through the Client API.

let emu: Emulator;
let client: ReviewsClient;
const customer = "snap";
const PAGE = 10;

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    accounts: [{ customer, clientId: "snap-client", clientSecret: "snap-secret-0123456789" }],
  });
  emu.control.seed({ customer, products: 6 });
  client = createReviewsClient({
    account: {
      customer,
      clientId: "snap-client",
      clientSecret: "snap-secret-0123456789",
      apiUrl: emu.baseUrl,
      authUrl: emu.authUrl,
      rateUrl: emu.rateUrl,
    },
  });
});
afterAll(async () => {
  await emu.close();
});

let userNo = 0;
async function product(sku: string, reviews: { rating: number; text?: string }[]) {
  await client.admin.sendCatalogBatch([{ sku, name: `Product ${sku}`, categories: ["General"] }]);
  const ids: string[] = [];
  for (let i = 0; i < reviews.length; i += 25) {
    ids.push(
      ...(await Promise.all(
        reviews.slice(i, i + 25).map(async (r) => {
          userNo++;
          const created = await client.storefront.submitReview(sku, {
            userId: `snap-${userNo}`,
            email: `snap${userNo}@example.com`,
            rating: r.rating,
            ...(r.text ? { text: r.text } : {}),
          });
          return created._id;
        }),
      )),
    );
  }
  for (const id of ids) emu.control.publishReview(id);
  return buildSnapshot(sku, await client.storefront.getSummary(sku, { pageSize: PAGE }), { pageSize: PAGE });
}

describe("buildSnapshot on the service's summaries", () => {
  it("GIVEN the demo seed's first product THEN photos, reply, syndicated source with its original text, AI summary topics and filters are all there", async () => {
    const state = emu.control.state(customer);
    const sku = state.products[0].sku;
    const published = state.reviews.filter((r) => r.sku === sku && r.status === "published");
    const snap = snapshotSchema.parse(
      buildSnapshot(sku, await client.storefront.getSummary(sku, { pageSize: PAGE }), { pageSize: PAGE }),
    );
    expect(snap.count).toBe(published.length);
    expect(snap.avg).toBe(Math.round((published.reduce((a, r) => a + r.rating, 0) / published.length) * 10) / 10);
    expect(snap.composition.map((c) => c.rating)).toEqual([5, 4, 3, 2, 1]);
    expect(snap.composition.reduce((a, c) => a + c.count, 0)).toBe(published.length);
    expect(snap.summary).toEqual({
      text: expect.stringContaining("quality"),
      positive: ["quality", "comfort"],
      negative: ["size"],
    });
    expect(snap.topics.length).toBeGreaterThan(0);
    expect(snap.reviews).toHaveLength(Math.min(PAGE, published.length));

    const syndicated = snap.reviews.find((r) => r.source !== null);
    expect(syndicated).toMatchObject({
      name: "Sofia R.",
      source: { name: "Partner Store" },
      original: "Muy cómoda, la uso todos los días.",
    });
    const withPhotos = snap.reviews.find((r) => r.pictures.length === 2 && r.reply !== null);
    expect(withPhotos?.pictures[0]).toEqual({
      url: expect.stringMatching(/^https?:\/\//),
      thumb: expect.stringMatching(/^https?:\/\//),
    });
    expect(withPhotos?.reply?.text).toMatch(/^Thank you for your review/);
    expect(snap.counts.pictures).toBeGreaterThan(0);
    expect(snapshotBytes(snap)).toBeLessThanOrEqual(SNAPSHOT_MAX_BYTES);
    expect(snap.shortened).toBe(false);
  });

  it("GIVEN the offline demo's reviews (seed-reviews) THEN its first product shows everything the blocks draw: photos, video, reply, syndicated original, AI summary, topics, attribute averages", async () => {
    await client.admin.sendCatalogBatch(
      ["demo-1", "demo-2"].map((sku) => ({ sku, name: `Demo ${sku}`, categories: ["General"] })),
    );
    emu.control.seedReviews({ customer, skus: ["demo-1", "demo-2"] });
    const snap = snapshotSchema.parse(
      buildSnapshot("demo-1", await client.storefront.getSummary("demo-1", { pageSize: 24 }), { pageSize: 24 }),
    );
    expect(snap.count).toBeGreaterThan(PAGE);
    expect(snap.reviews.some((r) => r.pictures.length > 0)).toBe(true);
    expect(snap.reviews.some((r) => r.video !== null)).toBe(true);
    expect(snap.reviews.some((r) => r.reply !== null)).toBe(true);
    expect(snap.reviews.some((r) => r.source?.name === "Partner Store" && r.original !== null)).toBe(true);
    expect(snap.reviews.some((r) => r.verified)).toBe(true);
    expect(snap.summary?.positive.length).toBeGreaterThan(0);
    expect(snap.summary?.negative.length).toBeGreaterThan(0);
    expect(snap.topics.length).toBeGreaterThan(0);
    expect(snap.attributes).toEqual([
      expect.objectContaining({ name: "Quality", type: "stars", scaleMin: 1, scaleMax: 5 }),
    ]);
    expect(snap.recommendedPct).not.toBeNull();
    expect(snap.composition.filter((c) => c.count > 0).length).toBeGreaterThan(1);
    expect(snapshotBytes(snap)).toBeLessThanOrEqual(SNAPSHOT_MAX_BYTES);
  });

  it("GIVEN a product without reviews THEN an empty snapshot: count 0, no page, no summary", async () => {
    const snap = snapshotSchema.parse(await product("snap-zero", []));
    expect(snap).toMatchObject({ count: 0, avg: 0, reviews: [], summary: null, recommendedPct: null });
    expect(snap.composition.every((c) => c.count === 0 && c.pct === 0)).toBe(true);
  });

  it("GIVEN one review THEN its rating is the average and its bar is 100 %", async () => {
    const snap = snapshotSchema.parse(await product("snap-one", [{ rating: 4, text: "Good." }]));
    expect(snap).toMatchObject({ count: 1, avg: 4 });
    expect(snap.composition.find((c) => c.rating === 4)).toEqual({ rating: 4, count: 1, pct: 100 });
    expect(snap.reviews.map((r) => r.text)).toEqual(["Good."]);
  });

  it("GIVEN 500 reviews THEN counts and shares cover all of them and the first page stays one page", async () => {
    const ratings = Array.from({ length: 500 }, (_, i) => ({
      rating: [5, 5, 4, 3, 1][i % 5],
      text: `Review number ${i}`,
    }));
    const snap = snapshotSchema.parse(await product("snap-many", ratings));
    expect(snap.count).toBe(500);
    expect(snap.avg).toBe(3.6);
    expect(snap.composition).toEqual([
      { rating: 5, count: 200, pct: 40 },
      { rating: 4, count: 100, pct: 20 },
      { rating: 3, count: 100, pct: 20 },
      { rating: 2, count: 0, pct: 0 },
      { rating: 1, count: 100, pct: 20 },
    ]);
    expect(snap.reviews).toHaveLength(PAGE);
    expect(snapshotBytes(snap)).toBeLessThanOrEqual(SNAPSHOT_MAX_BYTES);
  }, 60_000);

  it("GIVEN very long texts THEN the page is shortened to fit 24 KB, never dropped to fail the write", async () => {
    const long = (n: number) =>
      `${"Honest and detailed words about this product. ".repeat(Math.ceil(n / 47))}`.slice(0, n);
    const snap = snapshotSchema.parse(
      await product(
        "snap-long",
        Array.from({ length: 12 }, (_, i) => ({ rating: 1 + (i % 5), text: long(6_000) })),
      ),
    );
    expect(snap.count).toBe(12);
    expect(snap.shortened).toBe(true);
    expect(snap.reviews.length).toBeGreaterThanOrEqual(1);
    expect(snap.reviews.length).toBeLessThan(PAGE);
    expect(snapshotBytes(snap)).toBeLessThanOrEqual(SNAPSHOT_MAX_BYTES);

    // One text larger than the whole budget: that review stays, its text cut.
    const huge = snapshotSchema.parse(await product("snap-huge", [{ rating: 5, text: long(60_000) }]));
    expect(huge.reviews).toHaveLength(1);
    expect(huge.reviews[0].text.endsWith("…")).toBe(true);
    expect(snapshotBytes(huge)).toBeLessThanOrEqual(SNAPSHOT_MAX_BYTES);
  });
});
