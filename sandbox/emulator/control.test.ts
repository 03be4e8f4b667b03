import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, issueToken, product, setup } from "./harness";
import { startEmulator } from "./server";

let t: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  t = await setup();
});
afterAll(() => t.emu.close());

const ctl = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${t.emu.origin}/__emulator${path}`, init);

describe("request log", () => {
  it("records method, path, query, status and parsed body, newest last, since a sequence number", async () => {
    await ctl("/requests", { method: "DELETE" });
    const since = t.emu.control.lastRequestSeq();
    await t.admin("POST", "/products/batch", { products: [product("log-1")] });
    await call(`${t.emu.baseUrl}/demo-store/ratings?skus=a&skus=b`);
    const res = await ctl(`/requests?since=${since}`);
    expect(res.body.requests).toEqual([
      expect.objectContaining({
        seq: since + 1,
        method: "POST",
        path: "/api/demo-store/products/batch",
        query: {},
        status: 200,
        body: { products: [product("log-1")] },
        at: expect.any(String),
      }),
      expect.objectContaining({ seq: since + 2, method: "GET", query: { skus: ["a", "b"] }, status: 200, body: null }),
    ]);
    expect((await ctl(`/requests?since=${since + 1}`)).body.requests).toHaveLength(1);
  });

  it("never stores the Authorization header or client_secret values", async () => {
    const since = t.emu.control.lastRequestSeq();
    const token = await issueToken(t.emu);
    await call(`${t.emu.baseUrl}/demo-store/reviews/all?client_secret=leak`, { token });
    const form = new URLSearchParams({
      audience: t.emu.baseUrl,
      grant_type: "client_credentials",
      client_id: "demo-client",
      client_secret: "demo-secret",
    });
    await call(`${t.emu.authUrl}/oauth/token`, {
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const log = (await ctl(`/requests?since=${since}`)).body.requests;
    expect(log).toHaveLength(3);
    expect(log[0].body).toMatchObject({ client_id: "demo-client", client_secret: "[redacted]" });
    expect(log[1].headers.authorization).toBe("[redacted]");
    expect(log[1].query.client_secret).toBe("[redacted]");
    expect(log[2].body.client_secret).toBe("[redacted]");
    const text = JSON.stringify(log);
    expect(text).not.toContain("demo-secret");
    expect(text).not.toContain(token);
    expect(text).not.toContain("leak");
  });

  it("does not log /__emulator calls; DELETE clears the log", async () => {
    await ctl("/requests", { method: "DELETE" });
    await ctl("/state?customer=demo-store");
    expect((await ctl("/requests")).body.requests).toEqual([]);
  });
});

describe("control endpoints", () => {
  it("seed is deterministic and state reports it; reset clears state, faults and log", async () => {
    const first = await ctl("/seed", { body: { customer: "det-store", products: 5 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      customer: "det-store",
      products: expect.any(Array),
      reviews: expect.any(Number),
      sampleOrder: expect.any(Object),
    });
    const a = (await ctl("/state?customer=det-store")).body;
    await ctl("/seed", { body: { customer: "det-store", products: 5 } });
    const b = (await ctl("/state?customer=det-store")).body;
    expect(b).toEqual(a);
    expect(a.products).toHaveLength(5);
    for (const key of ["products", "orders", "reviews", "questions", "nps", "groups", "storeReviews", "attributes"]) {
      expect(a[key].length, key).toBeGreaterThan(0);
    }
    expect(a.reviews.some((r: { pictures: unknown[]; reply: unknown }) => r.pictures.length > 0 && r.reply)).toBe(true);
    expect((await ctl("/state")).body.customers).toHaveProperty("det-store");

    await ctl("/faults", { body: { errorRate: 1 } });
    await ctl("/reset", { method: "POST" });
    expect((await ctl("/state?customer=det-store")).body.products).toEqual([]);
    expect((await ctl("/requests")).body.requests).toEqual([]);
    expect((await call(`${t.emu.baseUrl}/demo-store/ratings?skus=a`)).status).toBe(200);
    // Accounts and issued tokens survive a reset.
    expect((await t.admin("GET", "/reviews/all")).status).toBe(200);
  });

  it("adds accounts, publishes reviews, answers health", async () => {
    expect(
      (await ctl("/accounts", { body: { customer: "new-store", clientId: "new-id", clientSecret: "new-secret" } }))
        .status,
    ).toBe(200);
    const token = await issueToken(t.emu, { clientId: "new-id", clientSecret: "new-secret" });
    await call(`${t.emu.baseUrl}/new-store/products/batch`, { token, body: { products: [product("n1")] } });
    const review = await call(`${t.emu.baseUrl}/new-store/n1/review`, {
      body: { userId: "u", email: "e@x.com", rating: 5 },
    });
    expect((await ctl(`/reviews/${review.body._id}/publish`, { method: "POST" })).body.status).toBe("published");
    expect((await call(`${t.emu.baseUrl}/new-store/ratings?skus=n1`)).body[0].reviewCount).toBe(1);
    expect((await ctl("/health")).body).toEqual({
      ok: true,
      origin: t.emu.origin,
      baseUrl: t.emu.baseUrl,
      authUrl: t.emu.authUrl,
      rateUrl: t.emu.rateUrl,
    });
    expect((await ctl("/accounts", { body: { customer: "x" } })).status).toBe(400);
  });

  it("forget drops products and orders as a reset account would: reviews stay without their product, an order update answers 404", async () => {
    await ctl("/accounts", {
      body: { customer: "forget-store", clientId: "forget-id", clientSecret: "forget-secret" },
    });
    const token = await issueToken(t.emu, { clientId: "forget-id", clientSecret: "forget-secret" });
    await call(`${t.emu.baseUrl}/forget-store/products/batch`, {
      token,
      body: { products: [product("f1"), product("f2")] },
    });
    const review = await call(`${t.emu.baseUrl}/forget-store/f1/review`, {
      body: { userId: "u", email: "e@x.com", rating: 4 },
    });
    expect(
      (
        await call(`${t.emu.baseUrl}/forget-store/orders`, {
          token,
          body: { version: 2, orderId: "o-1", items: [{ productId: "f1" }] },
        })
      ).status,
    ).toBe(200);

    const forgot = await ctl("/forget", {
      body: { customer: "forget-store", skus: ["f1", "nope"], orderIds: ["o-1"] },
    });
    expect(forgot.body).toEqual({ skus: ["f1"], orderIds: ["o-1"] });
    const state = (await ctl("/state?customer=forget-store")).body;
    expect(state.products.map((p: { sku: string }) => p.sku)).toEqual(["f2"]);
    expect(state.orders).toEqual([]);
    const listed = await call(`${t.emu.baseUrl}/forget-store/reviews/all?sku=f1`, { token });
    expect(listed.body.results.find((r: { _id: string }) => r._id === review.body._id).product).toBeNull();
    expect(
      (await call(`${t.emu.baseUrl}/forget-store/orders/o-1`, { token, method: "PUT", body: { status: "shipped" } }))
        .status,
    ).toBe(404);
    expect((await ctl("/forget", { body: { skus: ["f2"] } })).status).toBe(400);
  });

  it("settings change the store URL used to resolve relative product URLs", async () => {
    await ctl("/settings/demo-store", { method: "PUT", body: { storeUrl: "https://shop.example.com" } });
    const res = await t.admin("PUT", "/products/rel", { name: "Rel", categories: ["X"], url: "/products/rel" });
    expect(res.body.url).toBe("https://shop.example.com/products/rel");
  });
});

describe("survey answers seed", () => {
  it("GIVEN a count THEN the customer holds that many answers, every score among them, and seeding again adds only the difference", async () => {
    const customer = "nps-seed-store";
    expect((await ctl("/seed-nps", { method: "POST", body: { customer, count: 120 } })).body).toEqual({
      customer,
      nps: 120,
    });
    const first = t.emu.control.state(customer).nps;
    expect(new Set(first.map((n) => n.rating))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    expect(first.filter((n) => n.partial)).toHaveLength(6);
    expect(new Set(first.map((n) => n.created.slice(0, 7))).size).toBeGreaterThanOrEqual(12);
    expect((await ctl("/seed-nps", { method: "POST", body: { customer, count: 120 } })).body.nps).toBe(120);
    expect((await ctl("/seed-nps", { method: "POST", body: { customer, count: 130 } })).body.nps).toBe(130);
    expect(t.emu.control.state(customer).nps.filter((n) => first.some((f) => f._id === n._id))).toEqual(first);
    expect((await ctl("/seed-nps", { method: "POST", body: { customer } })).status).toBe(400);
  });
});

describe("data file persistence", () => {
  it("writes state, accounts and tokens to the file and loads them on the next start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reviews-emulator-"));
    const dataFile = join(dir, "state.json");
    try {
      const first = await startEmulator({ dataFile, logger: { info() {}, error() {} } });
      const token = await issueToken(first);
      await call(`${first.baseUrl}/demo-store/products/batch`, { token, body: { products: [product("kept")] } });
      first.control.seed({ customer: "seeded", products: 3 });
      await first.close();
      expect(JSON.parse(readFileSync(dataFile, "utf8")).version).toBe(1);

      const second = await startEmulator({ dataFile, logger: { info() {}, error() {} } });
      try {
        expect(second.control.state("demo-store").products.map((p) => p.sku)).toEqual(["kept"]);
        expect(second.control.state("seeded").reviews.length).toBeGreaterThan(0);
        const res = await call(`${second.baseUrl}/demo-store/reviews/all`, { token });
        expect(res.status).toBe(200);
        const summary = await call(
          `${second.baseUrl}/seeded/${second.control.state("seeded").products[0].sku}/summary`,
        );
        expect(summary.body.reviews[0].reviewCount).toBeGreaterThan(0);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
