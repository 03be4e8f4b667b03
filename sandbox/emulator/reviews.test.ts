import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { product, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await setup();
  t.emu.control.seed({ customer: t.customer, products: 12 });
  await t.admin("POST", "/products/batch", {
    products: [product("rv-1", { categories: ["Kitchen"] }), product("rv-2", { categories: ["Garden"] })],
  });
  await t.admin("POST", "/orders", {
    version: 2,
    orderId: "rv-order",
    name: "Olga Petrova",
    email: "olga@example.com",
    phone: "+100",
    userId: "olga",
    status: "delivered",
    items: [{ productId: "rv-1", sku: "rv-1-red", skuName: "Red", sellerInfo: { id: "s9", name: "Seller Nine" } }],
  });
  const found = await t.client("POST", "/orders/find", { orderId: "rv-order", email: "olga@example.com" });
  const submit = async (key: string, sku: string, body: Record<string, unknown>) => {
    const res = await t.client("POST", `/${sku}/review`, body);
    expect(res.status).toBe(200);
    ids[key] = res.body._id;
  };
  await submit("verified", "rv-1", { ...found.body, rating: 5, text: "Superb pan" });
  await submit("low", "rv-1", { userId: "u1", email: "u1@example.com", rating: 1, text: "" });
  await submit("mid", "rv-2", { userId: "u2", email: "u2@example.com", rating: 3, text: "Okay hose" });
  await submit("bad-word", "rv-2", {
    userId: "u3",
    email: "u3@example.com",
    rating: 2,
    text: "This has a forbiddenword inside",
  });
  await t.admin("PUT", `/reviews/${ids.verified}/moderate`, { approved: true });
  await t.admin("PUT", `/reviews/${ids.mid}/moderate`, { approved: true });
  await t.admin("PUT", `/reviews/${ids.low}/moderate`, { approved: false });
  t.emu.control.replyToReview(ids.mid, "Thanks!");
});
afterAll(() => t.emu.close());

const list = (query = "", body?: unknown) => t.admin(body ? "POST" : "GET", `/reviews/all${query}`, body);
const idsOf = (res: { body: { results: { _id: string }[] } }) => res.body.results.map((r) => r._id);

describe("GET|POST /{customer}/reviews/all", () => {
  it("answers {results, total} with the admin review shape", async () => {
    const res = await list("?sku=rv-1");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    const review = res.body.results.find((r: { _id: string }) => r._id === ids.verified);
    expect(review).toMatchObject({
      _id: ids.verified,
      customer: "demo-store",
      userId: "olga",
      name: "Olga P.",
      sku: "rv-1",
      text: "Superb pan",
      source: "sdk",
      status: "published",
      rating: 5,
      helpful: 0,
      unhelpful: 0,
      verified: true,
      recommended: true,
      moderationTags: [],
      created: expect.stringMatching(/Z$/),
      pictures: [],
      attributes: [],
      product: {
        sku: "rv-1",
        name: "Product rv-1",
        categories: ["Kitchen"],
        customer: "demo-store",
        _id: expect.any(String),
        specifications: [],
      },
      __v: 1,
    });
    expect(review).not.toHaveProperty("orderId");
  });

  it("moderation: approved → published, rejected → removed; unknown id → 404", async () => {
    const state = t.emu.control.state(t.customer).reviews;
    expect(state.find((r) => r._id === ids.verified)!.status).toBe("published");
    expect(state.find((r) => r._id === ids.low)!.status).toBe("removed");
    expect(state.find((r) => r._id === ids.low)!.moderatedAt).toBeDefined();
    expect((await t.admin("PUT", "/reviews/000000000000000000000000/moderate", { approved: true })).status).toBe(404);
    expect((await t.admin("PUT", `/reviews/${ids.mid}/moderate`, { approved: "yes" })).status).toBe(400);
  });

  it("filters by status (empty = any), rating, tags and autoModerated", async () => {
    const all = await list("?sku=rv-2&status=");
    expect(all.body.total).toBe(2);
    expect(idsOf(await list("?sku=rv-2&status=filtered"))).toEqual([ids["bad-word"]]);
    expect(idsOf(await list("?sku=rv-2&rating=3"))).toEqual([ids.mid]);
    expect(idsOf(await list("?tags=forbidden-word&sku=rv-2"))).toEqual([ids["bad-word"]]);
    expect(idsOf(await list("?autoModerated=true&sku=rv-2"))).toEqual([ids["bad-word"]]);
    expect((await list("?status=pending")).body.results.every((r: { status: string }) => r.status === "pending")).toBe(
      true,
    );
  });

  it("filters by hasText, hasReply, hasPicture and complete", async () => {
    expect(idsOf(await list("?sku=rv-1&hasText=false"))).toEqual([ids.low]);
    expect(idsOf(await list("?sku=rv-2&hasReply=true"))).toEqual([ids.mid]);
    const pictures = await list("?hasPicture=true&limit=500");
    expect(pictures.body.total).toBeGreaterThan(0);
    expect(pictures.body.results.every((r: { pictures: unknown[] }) => r.pictures.length > 0)).toBe(true);
    const complete = await list("?complete=true&limit=500");
    expect(complete.body.total).toBeGreaterThan(0);
    expect(
      complete.body.results.every(
        (r: { pictures: unknown[]; video: unknown; text: string }) =>
          (r.pictures.length > 0 || r.video !== null) && r.text,
      ),
    ).toBe(true);
  });

  it("filters by topics and by from/to (inclusive UTC days)", async () => {
    const state = t.emu.control.state(t.customer).reviews;
    const inRange = state.filter(
      (r) => r.created >= "2026-06-01T00:00:00.000Z" && r.created <= "2026-07-31T23:59:59.999Z",
    );
    const res = await list("?from=2026-06-01&to=2026-07-31&limit=500");
    expect(res.body.total).toBe(inRange.length);
    expect(res.body.total).toBeGreaterThan(0);
    const topic = await list("?topics=comfort&limit=500");
    expect(topic.body.total).toBe(state.filter((r) => r.topics.includes("comfort")).length);
  });

  it("orders by field,direction and pages with skip (page size 50, limit accepted)", async () => {
    const asc = await list("?order=rating,1&limit=500");
    const ratings = asc.body.results.map((r: { rating: number }) => r.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    const desc = await list("?order=helpful,-1&limit=500");
    const helpful = desc.body.results.map((r: { helpful: number }) => r.helpful);
    expect(helpful).toEqual([...helpful].sort((a, b) => b - a));
    const page1 = await list("");
    expect(page1.body.results).toHaveLength(Math.min(50, page1.body.total));
    const page2 = await list("?skip=50");
    expect(page2.body.results.length).toBe(Math.max(0, page1.body.total - 50));
    expect(idsOf(page2)).not.toContain(idsOf(page1)[0]);
  });

  it("includeOrderData adds the order and seller fields", async () => {
    const res = await list("?sku=rv-1&includeOrderData=true&status=published");
    expect(res.body.results[0]).toMatchObject({
      orderId: "rv-order",
      sellerInfo: { id: "s9", name: "Seller Nine" },
      orderName: "Olga Petrova",
      orderEmail: "olga@example.com",
      orderPhone: "+100",
      variantSku: "rv-1-red",
      variantName: "Red",
    });
  });

  it("POST combines body categories and sentiment with the query", async () => {
    expect(idsOf(await list("", { categories: ["Kitchen"] })).sort()).toEqual([ids.verified, ids.low].sort());
    expect(idsOf(await list("?status=published", { categories: ["Kitchen", "Garden"], sentiment: "neutral" }))).toEqual(
      [ids.mid],
    );
    expect((await list("", { sentiment: "happy" })).status).toBe(400);
  });

  it("answers 400 to bad query values instead of ignoring them", async () => {
    for (const q of [
      "?status=deleted",
      "?rating=6",
      "?order=name,1",
      "?order=rating,2",
      "?hasText=maybe",
      "?from=2026-02-30",
      "?skip=-1",
    ]) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
    }
  });
});

describe("GET /{customer}/questions/all", () => {
  it("defaults to published, accepts all and each status, pages with skip", async () => {
    const state = t.emu.control.state(t.customer).questions;
    const published = await t.admin("GET", "/questions/all");
    expect(published.body.total).toBe(state.filter((q) => q.status === "published").length);
    expect(published.body.results[0]).toMatchObject({
      status: "published",
      product: { sku: expect.any(String), totalReviews: expect.any(Number) },
    });
    expect((await t.admin("GET", "/questions/all?status=all")).body.total).toBe(state.length);
    const sent = await t.admin("GET", "/questions/all?status=sent");
    expect(sent.body.results.every((q: { status: string }) => q.status === "sent")).toBe(true);
    expect((await t.admin("GET", "/questions/all?status=open")).status).toBe(400);
    const asc = await t.admin("GET", "/questions/all?status=all&order=created,1");
    const created = asc.body.results.map((q: { created: string }) => q.created);
    expect(created).toEqual([...created].sort());
  });
});

describe("GET /{customer}/nps/responses", () => {
  it("answers {results, total}, filtered by type and sorted", async () => {
    const all = await t.admin("GET", "/nps/responses");
    expect(Object.keys(all.body).sort()).toEqual(["results", "total"]);
    expect(all.body.total).toBe(10);
    expect(all.body.results[0]).toMatchObject({
      surveyId: expect.any(String),
      rating: expect.any(Number),
      partial: expect.any(Boolean),
    });
    const promoters = await t.admin("GET", "/nps/responses?type=promoters&sort=rating,1");
    expect(promoters.body.results.every((r: { rating: number }) => r.rating >= 9)).toBe(true);
    const detractors = await t.admin("GET", "/nps/responses?type=detractors");
    expect(detractors.body.results.every((r: { rating: number }) => r.rating <= 6)).toBe(true);
    const neutral = await t.admin("GET", "/nps/responses?type=neutral");
    expect(promoters.body.total + detractors.body.total + neutral.body.total).toBe(all.body.total);
    expect((await t.admin("GET", "/nps/responses?type=fans")).status).toBe(400);
  });
});
