import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogRoutes } from "./catalog";
import { clientOrderRoutes } from "./client-orders";
import { ratingRoutes } from "./client-ratings";
import { clientReviewRoutes } from "./client-reviews";
import { storeRoutes } from "./client-store";
import { groupRoutes } from "./groups";
import { npsRoutes } from "./nps";
import { orderRoutes } from "./orders";
import { questionRoutes } from "./questions";
import { reportRoutes } from "./report";
import { reviewAdminRoutes } from "./reviews";
import { product, setup } from "./harness";
import { DOCUMENTED_ANSWERS, project } from "./strict";

// Strict mode over HTTP: the seeded demo store (photos, a video, replies, syndication, topics, an
// AI summary) read through every kind of answer, which must carry the documented fields only; and
// the admin listings' page size as an option.

let t: Awaited<ReturnType<typeof setup>>;

beforeAll(async () => {
  t = await setup({ strict: true, adminPageSize: 20 });
  t.emu.control.seed({ customer: t.customer, products: 12 });
});
afterAll(() => t.emu.close());

const keysDeep = (v: unknown, prefix = ""): string[] => {
  if (Array.isArray(v)) return v.flatMap((x) => keysDeep(x, `${prefix}[]`));
  if (v === null || typeof v !== "object") return [];
  return Object.entries(v).flatMap(([k, x]) => [`${prefix}.${k}`, ...keysDeep(x, `${prefix}.${k}`)]);
};

describe("strict mode", () => {
  it("GIVEN every Admin and Client API route THEN each has its documented answer listed", () => {
    const routes = [
      catalogRoutes,
      orderRoutes,
      reviewAdminRoutes,
      questionRoutes,
      npsRoutes,
      reportRoutes,
      groupRoutes,
      ratingRoutes,
      clientReviewRoutes,
      storeRoutes,
      clientOrderRoutes,
    ].flat();
    const missing = routes.map((r) => `${r.method} ${r.pattern}`).filter((k) => !(k in DOCUMENTED_ANSWERS));
    expect(missing).toEqual([]);
  });

  it("GIVEN a shape THEN only its keys survive, nested and in arrays, and nulls stay", () => {
    expect(
      project(
        { a: 1, b: 2, c: [{ d: 1, e: 2 }], f: null, g: { h: 1, i: 2 } },
        { a: true, c: [{ d: true }], f: { x: true }, g: { h: true } },
      ),
    ).toEqual({ a: 1, c: [{ d: 1 }], f: null, g: { h: 1 } });
  });

  it("GIVEN the admin review list THEN no review carries moderatedAt, updated, reply, topics, video or autoModerated, yet the moderatedAt order still holds", async () => {
    const res = await t.admin("GET", "/reviews/all?order=moderatedAt,-1");
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(20);
    const keys = new Set(keysDeep(res.body.results));
    for (const k of ["moderatedAt", "updated", "reply", "topics", "video", "autoModerated"])
      expect([...keys].filter((x) => x.endsWith(`.${k}`))).toEqual([]);
    expect(keys).toContain("[].status");
    expect(keys).toContain("[].created");
    // The order is the service's, whatever it sends: the newest moderation first.
    const moderated = t.emu.control
      .state(t.customer)
      .reviews.filter((r) => r.moderatedAt)
      .sort((a, b) => b.moderatedAt!.localeCompare(a.moderatedAt!) || b._id.localeCompare(a._id));
    expect(res.body.results[0]._id).toBe(moderated[0]._id);
  });

  it("GIVEN adminPageSize 20 THEN the lists answer 20 a page and `skip` pages through them", async () => {
    const first = await t.admin("GET", "/reviews/all?order=created,-1");
    const second = await t.admin("GET", "/reviews/all?order=created,-1&skip=20");
    expect(first.body.results).toHaveLength(20);
    expect(first.body.total).toBeGreaterThan(20);
    expect(second.body.results[0]._id).not.toBe(first.body.results[0]._id);
  });

  it("GIVEN the Client API summary THEN reviews carry only the documented fields (replies, videos and syndication included)", async () => {
    const sku = t.emu.control.state(t.customer).reviews.find((r) => r.video && r.status === "published")!.sku;
    const res = await t.client("GET", `/${sku}/summary/created,desc?pageSize=50`);
    expect(res.status).toBe(200);
    const review = res.body.reviews[0].reviews.find((r: { video?: unknown }) => r.video);
    expect(Object.keys(review.video).sort()).toEqual(["converted", "fileKey", "fileName", "thumb", "url"]);
    // The spec's table "Individual review (`reviews[].reviews[]`)".
    const documented = new Set(
      "_id sku name text customer status rating helpful unhelpful verified recommended created updated pictures video hasPicture hasVideo helpfulScore attributes reply productReviewed syndicationSourceCustomer syndicationDisplaySource syndicationSourceLogo syndicationSourceProductUrl syndicationOriginalText".split(
        " ",
      ),
    );
    for (const r of res.body.reviews[0].reviews) expect(Object.keys(r).filter((k) => !documented.has(k))).toEqual([]);
  });

  it("GIVEN a submission and its follow-ups THEN the record keeps updateToken, and answers the spec leaves unshown are empty", async () => {
    await t.admin("POST", "/products/batch", { products: [product("st-1")] });
    const sent = await t.client("POST", "/st-1/review", {
      userId: "s1",
      email: "s1@example.com",
      rating: 4,
      text: "Fine",
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ _id: expect.any(String), status: "sent", updateToken: expect.any(String) });
    expect(sent.body).not.toHaveProperty("email");
    const q = await t.client("POST", "/st-1/question", { userId: "s1", email: "s1@example.com", text: "Blue?" });
    expect(q).toMatchObject({ status: 200, body: {} });
    const questions = await t.admin("GET", "/questions/all?status=all&sku=st-1");
    expect(questions.body.results[0]).toMatchObject({ text: "Blue?", email: "s1@example.com" });
  });

  it("GIVEN an error THEN its body is left as it is", async () => {
    const res = await t.admin("GET", "/reviews/all?rating=6");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });
});
