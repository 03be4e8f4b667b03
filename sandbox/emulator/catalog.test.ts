import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, product, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  t = await setup();
});
afterAll(() => t.emu.close());

const batch = (products: unknown) => t.admin("POST", "/products/batch", { products });
const stored = (sku: string) => t.emu.control.state(t.customer).products.find((p) => p.sku === sku);

describe("POST /{customer}/products/batch", () => {
  it("creates products and reports the counters", async () => {
    const res = await batch([product("c-1"), product("c-2")]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      received: 2,
      processed: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      failed: 0,
      errors: [],
    });
    const again = await batch([product("c-1"), product("c-2", { brand: "Acme" })]);
    expect(again.body).toMatchObject({ received: 2, processed: 2, created: 0, updated: 1, unchanged: 1, failed: 0 });
  });

  it("rule 1: omitted fields are left unchanged", async () => {
    await batch([product("r1", { brand: "Acme", description: "Long text", url: "/products/r1" })]);
    const res = await batch([{ sku: "r1", image: "https://cdn.example/r1.jpg" }]);
    expect(res.body.updated).toBe(1);
    expect(stored("r1")).toMatchObject({
      name: "Product r1",
      brand: "Acme",
      description: "Long text",
      categories: ["Apparel"],
      url: "https://demo-store.example/products/r1",
      image: "https://cdn.example/r1.jpg",
    });
  });

  it("rule 2: variants are accumulative", async () => {
    await batch([product("r2", { variants: ["r2-a", "r2-b"] })]);
    await batch([{ sku: "r2", variants: ["r2-c", "r2-a"] }]);
    expect(stored("r2")!.variants).toEqual(["r2-a", "r2-b", "r2-c"]);
    const same = await batch([{ sku: "r2", variants: ["r2-b"] }]);
    expect(same.body.unchanged).toBe(1);
  });

  it("rule 3: categories and specifications are replaced whole", async () => {
    await batch([
      product("r3", {
        categories: ["A", "B"],
        specifications: [
          { name: "Color", value: "Red" },
          { name: "Size", value: "M" },
        ],
      }),
    ]);
    await batch([{ sku: "r3", categories: ["C"], specifications: [{ name: "Fit", value: "Slim" }] }]);
    expect(stored("r3")).toMatchObject({ categories: ["C"], specifications: [{ name: "Fit", value: "Slim" }] });
  });

  it("rule 4: repeated SKUs in one batch are merged before applying", async () => {
    const res = await batch([
      product("r4", { brand: "First", variants: ["r4-a"] }),
      { sku: "r4", brand: "Last", variants: ["r4-b"] },
      product("r4-other"),
    ]);
    expect(res.body).toMatchObject({ received: 3, processed: 2, created: 2, failed: 0 });
    expect(stored("r4")).toMatchObject({ brand: "Last", variants: ["r4-a", "r4-b"], name: "Product r4" });
  });

  it("rule 5: a new product needs name and categories, otherwise that item is rejected", async () => {
    const res = await batch([
      { sku: "r5-a", categories: ["X"] },
      { sku: "r5-b", name: "No categories" },
      product("r5-c"),
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 3, processed: 3, created: 1, failed: 2 });
    expect(res.body.errors).toEqual([
      { index: 0, sku: "r5-a", error: expect.stringMatching(/name/) },
      { index: 1, sku: "r5-b", error: expect.stringMatching(/categories/) },
    ]);
    expect(stored("r5-a")).toBeUndefined();
  });

  it("rule 6: invalid items are rejected individually and the rest is stored with 200", async () => {
    const res = await batch([
      product("r6-ok"),
      { name: "missing sku", categories: ["X"] },
      product("r6-bad-type", { brand: 42 }),
      product("r6-bad-spec", { specifications: [{ name: "x", value: 1 }] }),
      product("r6-kw", { keywords: "a, b" }),
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 5, processed: 5, created: 2, failed: 3 });
    expect(res.body.errors.map((e: { index: number; sku: string | null }) => [e.index, e.sku])).toEqual([
      [1, null],
      [2, "r6-bad-type"],
      [3, "r6-bad-spec"],
    ]);
    expect(stored("r6-ok")).toBeDefined();
    expect(stored("r6-bad-type")).toBeUndefined();
  });

  it("answers 400 when products is absent, not an array, empty or over 200", async () => {
    for (const body of [
      {},
      { products: "x" },
      { products: [] },
      { products: Array.from({ length: 201 }, (_, i) => product(`big-${i}`)) },
    ]) {
      const res = await t.admin("POST", "/products/batch", body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
    const exactly200 = await batch(Array.from({ length: 200 }, (_, i) => product(`max-${i}`)));
    expect(exactly200.body.created).toBe(200);
  });

  it("answers 400 invalid_json to a malformed body", async () => {
    const res = await t.admin("POST", "/products/batch", '{"products": [');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_json");
  });

  it("answers 413 to a body over 10 MB, declared or streamed", async () => {
    const huge = JSON.stringify({ products: [product("huge", { description: "x".repeat(10 * 1024 * 1024) })] });
    const declared = await call(`${t.emu.baseUrl}/demo-store/products/batch`, { body: huge, token: t.token });
    expect(declared.status).toBe(413);
    expect(declared.body.error).toBe("payload_too_large");

    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 11; i++) c.enqueue(chunk);
        c.close();
      },
    });
    const res = await fetch(`${t.emu.baseUrl}/demo-store/products/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(stored("huge")).toBeUndefined();
  });
});

describe("PUT /{customer}/products/{sku}", () => {
  it("creates then partially updates, answering the stored record with an absolute url", async () => {
    const created = await t.admin("PUT", "/products/put%2F1", {
      name: "Slash",
      categories: ["X"],
      url: "products/slash",
      variants: ["v1"],
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      customer: "demo-store",
      sku: "put/1",
      name: "Slash",
      categories: ["X"],
      url: "https://demo-store.example/products/slash",
      variants: ["v1"],
      modified: expect.any(String),
    });
    const updated = await t.admin("PUT", "/products/put%2F1", { brand: "Acme", variants: ["v2"] });
    expect(updated.body).toMatchObject({ name: "Slash", brand: "Acme", variants: ["v1", "v2"], _id: created.body._id });
  });

  it("answers 400 to an invalid body or a new product without name/categories", async () => {
    expect((await t.admin("PUT", "/products/put-2", { categories: ["X"] })).body.error).toBe("missing_required");
    expect((await t.admin("PUT", "/products/put-2", { name: "x", categories: "X" })).status).toBe(400);
    expect((await t.admin("PUT", "/products/put-2", [1, 2])).status).toBe(400);
    expect((await t.admin("PUT", "/products/put-2", { sku: "other", name: "x", categories: ["X"] })).status).toBe(400);
  });

  it("has no DELETE: products cannot be deleted through the API", async () => {
    const res = await t.admin("DELETE", "/products/c-1");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("PUT");
    expect(stored("c-1")).toBeDefined();
  });
});

describe("routing", () => {
  it("answers 404 not_found to unknown routes", async () => {
    const res = await call(`${t.emu.origin}/nothing/here`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "not_found", message: expect.any(String) });
  });
});
