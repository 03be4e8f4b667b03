import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CatalogProduct, type ReviewsClient, ReviewsPermanentError } from "../../app/.server/reviews";
import { type ContractTarget, EMULATED, clientFor, openTarget, uid, failure } from "./target";

// Catalog batch rules (admin-api.md "Send product catalog in batch", rules 1–6), the batch
// envelope's documented 400/413, and the single-product PUT.

let target: ContractTarget;
let client: ReviewsClient;
/** Same account, no client-side validation: to send what the service must refuse. */
let raw: ReviewsClient;

beforeAll(async () => {
  target = await openTarget();
  client = clientFor(target.account);
  raw = clientFor(target.account, { validateRequests: false });
});
afterAll(async () => {
  await target?.close();
});

const mug = (sku: string, extra: Partial<CatalogProduct> = {}): CatalogProduct => ({
  sku,
  name: "Stoneware mug",
  categories: ["Kitchen", "Mugs"],
  brand: "Acme Pottery",
  url: "https://shop.example.com/products/stoneware-mug",
  image: "https://cdn.example.com/mug.jpg",
  description: "A 350 ml stoneware mug, dishwasher safe.",
  variants: [`${sku}-blue`],
  ...extra,
});

/** The service has no product GET: an empty single-product PUT (a no-op update) returns the record. */
const read = (sku: string) => client.admin.updateProduct(sku, {});

describe("catalog batch", () => {
  it("creates new products and reports the counters", async () => {
    const a = uid("mug");
    const b = uid("mug");
    const result = await client.admin.sendCatalogBatch([mug(a), mug(b)]);
    expect(result).toMatchObject({
      received: 2,
      processed: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      failed: 0,
      errors: [],
    });
    const stored = await read(a);
    expect(stored).toMatchObject({
      sku: a,
      name: "Stoneware mug",
      categories: ["Kitchen", "Mugs"],
      brand: "Acme Pottery",
    });
    expect(stored._id).toEqual(expect.any(String));
  });

  it("is idempotent: resending the same products counts them unchanged", async () => {
    const a = uid("mug");
    await client.admin.sendCatalogBatch([mug(a)]);
    const again = await client.admin.sendCatalogBatch([mug(a)]);
    expect(again).toMatchObject({ received: 1, processed: 1, created: 0, updated: 0, unchanged: 1, failed: 0 });
  });

  it("rule 1: omitted fields are left unchanged", async () => {
    const a = uid("mug");
    await client.admin.sendCatalogBatch([mug(a)]);
    const result = await client.admin.sendCatalogBatch([{ sku: a, brand: "Acme Ceramics" }]);
    expect(result).toMatchObject({ updated: 1, failed: 0 });
    expect(await read(a)).toMatchObject({
      sku: a,
      name: "Stoneware mug",
      brand: "Acme Ceramics",
      categories: ["Kitchen", "Mugs"],
      image: "https://cdn.example.com/mug.jpg",
    });
  });

  it("rule 2: variants are accumulative", async () => {
    const a = uid("mug");
    await client.admin.sendCatalogBatch([mug(a, { variants: [`${a}-blue`] })]);
    await client.admin.sendCatalogBatch([{ sku: a, variants: [`${a}-red`] }]);
    await client.admin.sendCatalogBatch([{ sku: a, variants: [`${a}-red`, `${a}-green`] }]);
    const stored = await read(a);
    expect([...(stored.variants ?? [])].sort()).toEqual([`${a}-blue`, `${a}-green`, `${a}-red`].sort());
  });

  it("rule 3: categories are replaced whole", async () => {
    const a = uid("mug");
    await client.admin.sendCatalogBatch([mug(a, { categories: ["Kitchen", "Mugs"] })]);
    await client.admin.sendCatalogBatch([{ sku: a, categories: ["Gifts"] }]);
    expect((await read(a)).categories).toEqual(["Gifts"]);
  });

  it("rule 4: repeated SKUs are merged: last scalar wins, variants united", async () => {
    const a = uid("mug");
    const result = await client.admin.sendCatalogBatch([
      mug(a, { name: "First name", brand: "First brand", variants: [`${a}-1`] }),
      { sku: a, name: "Last name", variants: [`${a}-2`] },
    ]);
    expect(result).toMatchObject({ received: 2, processed: 1, created: 1, failed: 0 });
    const stored = await read(a);
    expect(stored).toMatchObject({ name: "Last name", brand: "First brand" });
    expect([...(stored.variants ?? [])].sort()).toEqual([`${a}-1`, `${a}-2`]);
  });

  it("rule 5: a new product without name, or without categories, is rejected", async () => {
    const noName = uid("mug");
    const noCategories = uid("mug");
    const result = await client.admin.sendCatalogBatch([
      { sku: noName, categories: ["Kitchen"] },
      { sku: noCategories, name: "Mug without categories" },
    ]);
    expect(result).toMatchObject({ received: 2, created: 0, failed: 2 });
    expect(result.errors.map((e) => [e.index, e.sku])).toEqual([
      [0, noName],
      [1, noCategories],
    ]);
    for (const e of result.errors) expect(e.error).toEqual(expect.any(String));
  });

  it("rule 5: an existing product may be updated without name and categories", async () => {
    const a = uid("mug");
    await client.admin.sendCatalogBatch([mug(a)]);
    const result = await client.admin.sendCatalogBatch([{ sku: a, description: "Now 400 ml." }]);
    expect(result).toMatchObject({ updated: 1, failed: 0 });
  });

  it("rule 6: invalid items are rejected individually, the others are stored, status 200", async () => {
    const good1 = uid("mug");
    const bad = uid("mug");
    const good2 = uid("mug");
    const result = await raw.admin.sendCatalogBatch([
      mug(good1),
      { sku: bad, name: 42, categories: ["Kitchen"] } as unknown as CatalogProduct,
      mug(good2),
    ]);
    expect(result).toMatchObject({ received: 3, processed: 3, created: 2, failed: 1 });
    expect(result.errors).toEqual([expect.objectContaining({ index: 1, sku: bad, error: expect.any(String) })]);
    await expect(read(good2)).resolves.toMatchObject({ sku: good2 });
  });

  it("rule 6: an item without a SKU is reported by index", async () => {
    const good = uid("mug");
    const result = await raw.admin.sendCatalogBatch([
      { name: "No SKU", categories: ["Kitchen"] } as CatalogProduct,
      mug(good),
    ]);
    expect(result).toMatchObject({ received: 2, created: 1, failed: 1 });
    expect(result.errors[0]).toMatchObject({ index: 0 });
  });

  it("accepts 200 products in one batch", async () => {
    const products = Array.from({ length: 200 }, (_, i) => mug(uid(`bulk${i}`)));
    const result = await client.admin.sendCatalogBatch(products);
    expect(result).toMatchObject({ received: 200, created: 200, failed: 0 });
  });

  it.each<[string, unknown]>([
    ["products empty", []],
    ["products over 200 items", Array.from({ length: 201 }, (_, i) => ({ sku: `x${i}` }))],
  ])("400 when %s", async (_name, products) => {
    const err = await failure(raw.admin.sendCatalogBatch(products as CatalogProduct[]));
    expect(err).toBeInstanceOf(ReviewsPermanentError);
    expect(err.status).toBe(400);
    expect(err.serviceError).toEqual(expect.any(String));
    expect(err.serviceMessage).toEqual(expect.any(String));
  });

  it.each<[string, unknown]>([
    ["products absent", undefined],
    ["products not an array", { sku: "x" }],
  ])("400 when %s", async (_name, products) => {
    // sendCatalogBatch always wraps its argument in {products}; `undefined` drops the key.
    const err = await failure(raw.admin.sendCatalogBatch(products as CatalogProduct[]));
    expect(err.status).toBe(400);
  });

  it("413 (tooLarge) when the body is over 10 MB", { timeout: 30_000 }, async () => {
    const filler = "x".repeat(60_000);
    const products = Array.from({ length: 190 }, () => mug(uid("big"), { description: filler }));
    const err = await failure(raw.admin.sendCatalogBatch(products));
    expect(err).toBeInstanceOf(ReviewsPermanentError);
    expect(err.status).toBe(413);
    expect((err as ReviewsPermanentError).tooLarge).toBe(true);
  });

  it("the client refuses the same oversized body without sending it", async () => {
    const filler = "x".repeat(60_000);
    const err = await failure(
      client.admin.sendCatalogBatch(Array.from({ length: 190 }, () => mug(uid("big"), { description: filler }))),
    );
    expect((err as ReviewsPermanentError).tooLarge).toBe(true);
    expect(err.status).toBeNull();
  });
});

describe("single product PUT", () => {
  it("creates a product and returns the stored record with an absolute url", async () => {
    const a = uid("mug");
    const { sku: _sku, ...fields } = mug(a, { url: "/products/stoneware-mug" });
    const record = await client.admin.updateProduct(a, fields);
    expect(record).toMatchObject({ sku: a, name: "Stoneware mug", categories: ["Kitchen", "Mugs"] });
    expect(record._id).toEqual(expect.any(String));
    expect(record.url).toMatch(/^https?:\/\/.+\/products\/stoneware-mug$/);
    expect(record.modified).toEqual(expect.any(String));
  });

  it("follows the batch rules: omitted fields kept, variants accumulated, categories replaced", async () => {
    const a = uid("mug");
    await client.admin.sendCatalogBatch([mug(a, { variants: [`${a}-1`] })]);
    const record = await client.admin.updateProduct(a, { categories: ["Gifts"], variants: [`${a}-2`] });
    expect(record).toMatchObject({ name: "Stoneware mug", categories: ["Gifts"] });
    expect([...(record.variants ?? [])].sort()).toEqual([`${a}-1`, `${a}-2`]);
  });

  it("encodes SKUs with reserved characters in the path", async () => {
    const a = `${uid("odd")}/A#1?x=y %`;
    const { sku: _sku, ...fields } = mug(a);
    await expect(client.admin.updateProduct(a, fields)).resolves.toMatchObject({ sku: a });
    await expect(read(a)).resolves.toMatchObject({ sku: a, name: "Stoneware mug" });
  });

  it("400 when a new product lacks name or categories", async () => {
    for (const fields of [{ categories: ["Kitchen"] }, { name: "Mug" }]) {
      const err = await failure(client.admin.updateProduct(uid("mug"), fields));
      expect(err).toBeInstanceOf(ReviewsPermanentError);
      expect(err.status).toBe(400);
      expect(err.serviceError).toEqual(expect.any(String));
      expect(err.serviceMessage).toEqual(expect.any(String));
    }
  });

  it("400 when the body is invalid", async () => {
    const err = await failure(raw.admin.updateProduct(uid("mug"), { name: "Mug", categories: "Kitchen" } as never));
    expect(err.status).toBe(400);
  });
});

if (EMULATED) {
  describe("catalog rules seen in the emulator's state", () => {
    it("rule 3: specifications are replaced whole; rule 1: description kept", async () => {
      const a = uid("mug");
      await client.admin.sendCatalogBatch([
        mug(a, {
          specifications: [
            { name: "Volume", value: "spec-350" },
            { name: "Material", value: "spec-stoneware" },
          ],
        }),
      ]);
      await client.admin.sendCatalogBatch([{ sku: a, specifications: [{ name: "Volume", value: "spec-400" }] }]);
      const state = JSON.stringify(await target.control!.state(target.account.customer));
      expect(state).toContain("spec-400");
      expect(state).not.toContain("spec-350");
      expect(state).not.toContain("spec-stoneware");
      expect(state).toContain("A 350 ml stoneware mug, dishwasher safe.");
    });
  });
}
