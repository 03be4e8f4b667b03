import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, product, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
const r: Record<string, string> = {};
const DAY = 86_400_000;

async function attachMedia(reviewId: string, sku: string, updateToken: string, kind: "pictures" | "video") {
  const bytes = Buffer.from(kind === "pictures" ? "fake-png-bytes" : "fake-mp4-bytes");
  const mimeType = kind === "pictures" ? "image/png" : "video/mp4";
  const pre = await t.client("POST", `/${sku}/review/${reviewId}/${kind}/presign`, {
    updateToken,
    mimeType,
    fileSize: bytes.length,
  });
  const target = kind === "pictures" ? pre.body.urls[0] : pre.body;
  const put = await fetch(target.uploadUrl, { method: "PUT", headers: { "content-type": mimeType }, body: bytes });
  expect(put.status).toBe(200);
  const confirm = kind === "pictures" ? { updateToken, keys: [target.fileKey] } : { updateToken, key: target.fileKey };
  expect((await t.client("POST", `/${sku}/review/${reviewId}/${kind}/confirm`, confirm)).status).toBe(200);
}

beforeAll(async () => {
  t = await setup({ tokenTtlSeconds: 365 * 86_400 });
  await t.admin("POST", "/products/batch", {
    products: [product("S", { image: "https://cdn.example/s.jpg", url: "/products/s" }), product("EMPTY")],
  });
  await t.admin("POST", "/orders", {
    orderId: "o-S",
    email: "buyer@example.com",
    name: "Pat Buyer",
    items: [{ sku: "S" }],
  });
  const found = await t.client("POST", "/orders/find", { orderId: "o-S", email: "buyer@example.com" });
  const add = async (key: string, body: Record<string, unknown>, media?: "pictures" | "video", publish = true) => {
    const res = await t.client("POST", "/S/review", {
      userId: `u-${key}`,
      email: `${key}@example.com`,
      text: `Review ${key}`,
      ...body,
    });
    expect(res.status).toBe(200);
    r[key] = res.body._id;
    if (media) await attachMedia(res.body._id, "S", res.body.updateToken, media);
    if (publish) await t.admin("PUT", `/reviews/${res.body._id}/moderate`, { approved: true });
    t.emu.control.advanceClock(DAY);
  };
  await add("r1", { rating: 5 });
  await add("r2", { rating: 3 }, "pictures");
  await add("r3", { rating: 4 }, "video");
  await add("r4", { rating: 4, userId: undefined, email: undefined, ...found.body });
  await add("r5", { rating: 1, text: "" });
  await add("r6", { rating: 5 }, undefined, false);
  await add("r7", { rating: 3, recommended: false });
  await add("r8", { rating: 4 });
  for (const voter of ["a", "b"])
    await t.client("POST", `/S/review/${r.r1}/like`, { userId: voter, email: `${voter}@x.com` });
  await t.client("POST", `/S/review/${r.r5}/dislike`, { email: "c@x.com" });
});
afterAll(() => t.emu.close());

const summary = (path = "", query = "") => t.client("GET", `/S/summary${path}${query}`);
const order = (res: { body: { reviews: { reviews: { _id: string }[] }[] } }) =>
  res.body.reviews[0].reviews.map((x) => Object.entries(r).find(([, id]) => id === x._id)![0]);

describe("GET /{customer}/ratings", () => {
  it("answers an entry for every requested sku, zero and without product when nothing is published", async () => {
    const res = await t.client("GET", "/ratings?skus=S,EMPTY,unknown,S");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        product: {
          image: "https://cdn.example/s.jpg",
          name: "Product S",
          url: "https://demo-store.example/products/s",
        },
        sku: "S",
        aggregateRating: 3.43,
        recommended: 4,
        recommendedPercentage: 57.14,
        reviewCount: 7,
      },
      { sku: "EMPTY", aggregateRating: 0, recommended: 0, recommendedPercentage: 0, reviewCount: 0 },
      { sku: "unknown", aggregateRating: 0, recommended: 0, recommendedPercentage: 0, reviewCount: 0 },
    ]);
    expect((await t.client("GET", "/ratings")).status).toBe(400);
  });
});

describe("GET /{customer}/{sku}/summary/{sortField,sortOrder}", () => {
  it("answers the summary shape; only published reviews; default page 1 of 5 by helpfulScore,desc", async () => {
    const res = await summary();
    expect(res.status).toBe(200);
    const agg = res.body.reviews[0];
    expect(agg).toMatchObject({
      _id: "S",
      aggregateRating: 3.43,
      recommendedPercentage: 57.14,
      reviewCount: 7,
      textReviews: 6,
      pictureReviews: 1,
      videoReviews: 1,
      mediaReviews: 2,
      verifiedReviews: 1,
      attributes: [],
    });
    expect(agg.reviews).toHaveLength(5);
    expect(order(res)[0]).toBe("r1");
    expect(order(res)).not.toContain("r6");
    expect(res.body.composition).toEqual([
      { _id: 5, count: 1 },
      { _id: 4, count: 3 },
      { _id: 3, count: 2 },
      { _id: 2, count: 0 },
      { _id: 1, count: 1 },
    ]);
    expect(res.body).toMatchObject({
      customerSettings: { minStarsHighlightPDP: 4 },
      sourceStores: [],
      syndicationSources: [],
      topicCounts: [],
      product: {
        name: "Product S",
        categories: ["Apparel"],
        totalReviews: 7,
        sumRatings: 24,
        isKit: false,
        variants: [],
      },
    });
    const video =
      agg.reviews.find((x: { _id: string }) => x._id === r.r3) ??
      (await summary("/created,asc", "?pageSize=50")).body.reviews[0].reviews.find(
        (x: { _id: string }) => x._id === r.r3,
      );
    expect(video).toMatchObject({
      hasVideo: true,
      hasPicture: false,
      video: { url: expect.stringContaining("/uploads/"), fileKey: expect.any(String) },
      reply: null,
    });
    expect(await summary("/helpfulScore,desc")).toMatchObject({ body: res.body });
  });

  it("sorts by each field; ties: video first, then photo, then most recent", async () => {
    const all = "?pageSize=50";
    expect(order(await summary("/rating,desc", all))).toEqual(["r1", "r3", "r8", "r4", "r2", "r7", "r5"]);
    expect(order(await summary("/rating,asc", all))).toEqual(["r5", "r2", "r7", "r3", "r8", "r4", "r1"]);
    expect(order(await summary("/created,asc", all))).toEqual(["r1", "r2", "r3", "r4", "r5", "r7", "r8"]);
    expect(order(await summary("/created,desc", all))).toEqual(["r8", "r7", "r5", "r4", "r3", "r2", "r1"]);
    const helpful = order(await summary("/helpful,desc", all));
    expect(helpful[0]).toBe("r1");
    expect(order(await summary("/helpfulScore,desc", all)).at(-1)).toBe("r5");
  });

  it("treats any sortOrder other than asc as desc, and an unknown field as helpfulScore", async () => {
    const desc = order(await summary("/rating,desc", "?pageSize=50"));
    expect(order(await summary("/rating,-1", "?pageSize=50"))).toEqual(desc);
    expect(order(await summary("/rating,1", "?pageSize=50"))).toEqual(desc);
    expect(order(await summary("/nonsense,desc", "?pageSize=50"))).toEqual(order(await summary("", "?pageSize=50")));
    expect(order(await summary("/nonsense,asc", "?pageSize=50"))).toEqual(
      order(await summary("/helpfulScore,asc", "?pageSize=50")),
    );
  });

  it("pages with page and pageSize; reviewCount is the total to page through", async () => {
    const all = order(await summary("/created,asc", "?pageSize=50"));
    const p2 = await summary("/created,asc", "?page=2&pageSize=3");
    expect(order(p2)).toEqual(all.slice(3, 6));
    expect(p2.body.reviews[0].reviewCount).toBe(7);
    expect(order(await summary("/created,asc", "?page=3&pageSize=3"))).toEqual(all.slice(6));
    expect(order(await summary("/created,asc", "?page=9&pageSize=3"))).toEqual([]);
    expect((await summary("", "?page=0")).status).toBe(400);
  });

  it("filters by media, text, verified and rating list", async () => {
    const q = (s: string) => summary("/created,asc", `?pageSize=50&${s}`);
    expect(order(await q("filterMedia=pictures"))).toEqual(["r2"]);
    expect(order(await q("filterMedia=videos"))).toEqual(["r3"]);
    expect(order(await q("filterMedia=any"))).toEqual(["r2", "r3"]);
    expect(order(await q("filterMedia=none"))).toEqual(["r1", "r4", "r5", "r7", "r8"]);
    expect(order(await q("hasText=true"))).not.toContain("r5");
    expect(order(await q("verified=true"))).toEqual(["r4"]);
    const rated = await q("rating=4,5");
    expect(order(rated)).toEqual(["r1", "r3", "r4", "r8"]);
    expect(rated.body.reviews[0].reviewCount).toBe(4);
    expect((await q("rating=6")).status).toBe(400);
    expect((await q("filterMedia=gifs")).status).toBe(400);
  });

  it("answers zero counts and product null for a SKU without reviews or catalog record", async () => {
    const res = await t.client("GET", "/unknown-sku/summary");
    expect(res.status).toBe(200);
    expect(res.body.reviews[0]).toMatchObject({ _id: "unknown-sku", reviewCount: 0, aggregateRating: 0, reviews: [] });
    expect(res.body.product).toBeNull();
  });

  it("answers 404 for an unknown customer key", async () => {
    expect((await call(`${t.emu.baseUrl}/nobody/S/summary`)).status).toBe(404);
  });
});

describe("seeded customer: topics, syndication, groups, store reviews, questions, top rated", () => {
  let seed: ReturnType<typeof t.emu.control.seed>;
  const sc = (path: string) => call(`${t.emu.baseUrl}/seed-store${path}`);
  beforeAll(() => {
    seed = t.emu.control.seed({ customer: "seed-store", products: 8 });
  });

  it("counts topics, filters by topics (; list) and by source store", async () => {
    const state = t.emu.control.state("seed-store");
    const sku = seed.products[0];
    const published = state.reviews.filter((x) => x.sku === sku && x.status === "published");
    const res = await sc(`/${sku}/summary?pageSize=100`);
    const counts = res.body.topicCounts as { name: string; count: number }[];
    expect(counts.map((c) => c.count)).toEqual([...counts.map((c) => c.count)].sort((a, b) => b - a));
    for (const c of counts) expect(c.count).toBe(published.filter((x) => x.topics.includes(c.name)).length);
    const filtered = await sc(`/${sku}/summary?pageSize=100&topics=comfort;size`);
    expect(filtered.body.reviews[0].reviewCount).toBe(
      published.filter((x) => x.topics.some((tp) => tp === "comfort" || tp === "size")).length,
    );
    expect(res.body.sourceStores).toEqual([
      { customer: "seed-store", name: "Seed Store", logo: null },
      { customer: "partner-store", name: "Partner Store", logo: null },
    ]);
    expect(res.body.syndicationSources).toEqual(["partner-store"]);
    const partner = await sc(`/${sku}/summary?pageSize=100&sourceStore=partner-store`);
    expect(partner.body.reviews[0].reviews).toHaveLength(1);
    expect(partner.body.reviews[0].reviews[0]).toMatchObject({
      syndicationSourceCustomer: "partner-store",
      syndicationOriginalText: expect.any(String),
    });
    expect(res.body.product.aiSummaryText).toEqual(expect.any(String));
  });

  it("pools the reviews of a product group and marks productReviewed", async () => {
    const state = t.emu.control.state("seed-store");
    const group = state.groups[0];
    const res = await sc(`/${group.skus[0]}/summary?pageSize=100`);
    const expected = state.reviews.filter((x) => group.skus.includes(x.sku) && x.status === "published").length;
    expect(res.body.reviews[0].reviewCount).toBe(expected);
    for (const x of res.body.reviews[0].reviews)
      expect(x.productReviewed).toMatchObject({ sku: x.sku, name: expect.any(String) });
  });

  it("store reviews: summary, published with sort, carousel of the 10 latest most positive", async () => {
    const published = t.emu.control.state("seed-store").storeReviews.filter((x) => x.status === "published");
    const summaryRes = await sc("/store-reviews/summary");
    expect(summaryRes.body).toEqual([
      {
        _id: "seed-store",
        count: published.length,
        avgRating: Math.round((published.reduce((s, x) => s + x.rating, 0) / published.length) * 100) / 100,
        enableStoreReview: true,
      },
    ]);
    const asc = await sc("/store-reviews/published/rating,1");
    const ratings = asc.body.results.map((x: { rating: number }) => x.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    expect(asc.body.results[0]).toEqual({
      _id: expect.any(String),
      created: expect.any(String),
      customer: "seed-store",
      rating: expect.any(Number),
      text: expect.any(String),
      name: expect.any(String),
    });
    expect((await sc("/store-reviews/published")).body.results).toHaveLength(published.length);
    expect((await sc("/store-reviews/published/stars,1")).status).toBe(400);
    const carousel = await sc("/store-reviews/carousel");
    expect(carousel.body).toHaveLength(10);
    const cr = carousel.body.map((x: { rating: number }) => x.rating);
    expect(cr).toEqual([...cr].sort((a, b) => b - a));
  });

  it("questions: published with replies; a submitted one appears once answered", async () => {
    const sku = seed.products[0];
    const before = await sc(`/${sku}/questions`);
    expect(before.body.length).toBeGreaterThan(0);
    expect(before.body.every((q: { status: string }) => q.status === "published")).toBe(true);
    expect(before.body[0]).toEqual({
      _id: expect.any(String),
      status: "published",
      created: expect.any(String),
      name: expect.any(String),
      text: expect.any(String),
      reply: expect.objectContaining({ text: expect.any(String) }),
    });
    const posted = await call(`${t.emu.baseUrl}/seed-store/${sku}/question`, {
      body: { userId: "user-1", email: "jane.doe@example.com", text: "Is it warm?" },
    });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ status: "sent", name: "Jane D.", text: "Is it warm?", reply: null });
    expect((await sc(`/${sku}/questions`)).body).toHaveLength(before.body.length);
    t.emu.control.answerQuestion(posted.body._id, "Very warm.");
    const after = await sc(`/${sku}/questions`);
    expect(after.body[0]).toMatchObject({ _id: posted.body._id, reply: { text: "Very warm." } });
    expect(
      (await call(`${t.emu.baseUrl}/seed-store/${sku}/question`, { body: { userId: "x", text: "no email" } })).status,
    ).toBe(400);
  });

  it("top rated: skus and badge label", async () => {
    const res = await sc("/top-rated/active");
    expect(res.body).toEqual({ skus: expect.any(Array), badgeLabel: "Top rated" });
    expect(res.body.skus.length).toBeGreaterThan(0);
  });
});
