import { describe, expect, it } from "vitest";
import {
  applyItem,
  mergeRepeated,
  normalizeUrl,
  runBatch,
  unite,
  validateItem,
  type ApplyContext,
} from "./catalog.rules";
import type { StoredProduct } from "./types";

const ctx: ApplyContext = {
  customer: "shop",
  storeUrl: "https://shop.example",
  nowIso: "2026-11-20T10:00:00.000Z",
  newId: () => "000000000000000000000001",
};

function stored(overrides: Partial<StoredProduct> = {}): StoredProduct {
  return {
    _id: "p1",
    customer: "shop",
    sku: "A",
    name: "Shirt",
    categories: ["Apparel"],
    brand: "Acme",
    variants: ["A-1"],
    specifications: [{ name: "Material", value: "Cotton" }],
    isKit: false,
    created: "2026-01-01T00:00:00.000Z",
    modified: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

describe("catalog rules (pure)", () => {
  it("rule 1: omitted fields are left unchanged", () => {
    const r = applyItem(stored(), { sku: "A", description: "New text" }, ctx);
    expect(r.outcome).toBe("updated");
    if (r.outcome === "failed") throw new Error();
    expect(r.product).toMatchObject({ name: "Shirt", brand: "Acme", categories: ["Apparel"], description: "New text" });
    expect(r.product.modified).toBe(ctx.nowIso);
  });

  it("rule 2: variants are united with the existing ones, order kept, no duplicates", () => {
    const r = applyItem(stored(), { sku: "A", variants: ["A-2", "A-1", "A-3"] }, ctx);
    if (r.outcome === "failed") throw new Error();
    expect(r.product.variants).toEqual(["A-1", "A-2", "A-3"]);
    expect(unite(["x"], ["y", "x", "y"])).toEqual(["x", "y"]);
  });

  it("rule 3: categories and specifications are replaced whole", () => {
    const r = applyItem(
      stored(),
      { sku: "A", categories: ["Sale"], specifications: [{ name: "Fit", value: "Slim" }] },
      ctx,
    );
    if (r.outcome === "failed") throw new Error();
    expect(r.product.categories).toEqual(["Sale"]);
    expect(r.product.specifications).toEqual([{ name: "Fit", value: "Slim" }]);
  });

  it("rule 4: repeated SKUs merge before applying: scalars from the last occurrence, variants united", () => {
    const merged = mergeRepeated([
      { index: 0, item: { sku: "A", name: "First", brand: "Acme", variants: ["v1"] } },
      { index: 1, item: { sku: "B", name: "Other", categories: ["X"] } },
      { index: 2, item: { sku: "A", name: "Last", variants: ["v2", "v1"] } },
    ]);
    expect(merged).toEqual([
      { index: 2, item: { sku: "A", name: "Last", brand: "Acme", variants: ["v1", "v2"] } },
      { index: 1, item: { sku: "B", name: "Other", categories: ["X"] } },
    ]);
  });

  it("rule 5: a new product without name or categories is rejected", () => {
    expect(applyItem(undefined, { sku: "N", categories: ["X"] }, ctx)).toMatchObject({
      outcome: "failed",
      error: expect.stringMatching(/name/),
    });
    expect(applyItem(undefined, { sku: "N", name: "New" }, ctx)).toMatchObject({
      outcome: "failed",
      error: expect.stringMatching(/categories/),
    });
    expect(applyItem(undefined, { sku: "N", name: "New", categories: [] }, ctx)).toMatchObject({ outcome: "failed" });
    expect(applyItem(stored(), { sku: "A", categories: [] }, ctx)).toMatchObject({ outcome: "updated" });
  });

  it("rule 6: invalid items are rejected one by one with their index; the rest is applied", () => {
    const { summary, writes } = runBatch(
      [
        { sku: "ok", name: "Ok", categories: ["X"] },
        { name: "no sku" },
        { sku: "bad", name: "B", categories: ["X"], brand: 7 },
        "nope",
      ],
      () => undefined,
      ctx,
    );
    expect(summary).toMatchObject({ received: 4, processed: 4, created: 1, failed: 3 });
    expect(summary.errors.map((e) => [e.index, e.sku])).toEqual([
      [1, null],
      [2, "bad"],
      [3, null],
    ]);
    expect(writes.map((p) => p.sku)).toEqual(["ok"]);
  });

  it("unchanged when nothing differs, and modified is not moved", () => {
    const r = applyItem(stored(), { sku: "A", name: "Shirt", variants: ["A-1"] }, ctx);
    expect(r.outcome).toBe("unchanged");
    if (r.outcome === "failed") throw new Error();
    expect(r.product.modified).toBe("2026-01-01T00:00:00.000Z");
  });

  it("validates types: keywords string or list, specifications {name,value} strings, null is not a string", () => {
    expect(validateItem({ sku: "A", keywords: "a b" }).ok).toBe(true);
    expect(validateItem({ sku: "A", keywords: ["a", "b"] }).ok).toBe(true);
    expect(validateItem({ sku: "A", keywords: 3 }).ok).toBe(false);
    expect(validateItem({ sku: "A", specifications: [{ name: "x" }] }).ok).toBe(false);
    expect(validateItem({ sku: "A", brand: null }).ok).toBe(false);
    expect(validateItem({ sku: 12 })).toMatchObject({ ok: false, sku: null });
    expect(validateItem({ sku: "" })).toMatchObject({ ok: false, sku: "" });
  });

  it("resolves relative URLs against the store URL and keeps absolute ones", () => {
    expect(normalizeUrl("/products/shirt", "https://shop.example")).toBe("https://shop.example/products/shirt");
    expect(normalizeUrl("products/shirt", "https://shop.example")).toBe("https://shop.example/products/shirt");
    expect(normalizeUrl("https://cdn.example/x", "https://shop.example")).toBe("https://cdn.example/x");
    expect(normalizeUrl("http://", "https://shop.example")).toBeNull();
  });

  it("processed counts merged SKUs once and failures keep the last occurrence's index", () => {
    const { summary } = runBatch(
      [
        { sku: "N", brand: "x" },
        { sku: "N", brand: "y" },
      ],
      () => undefined,
      ctx,
    );
    expect(summary).toMatchObject({ received: 2, processed: 1, failed: 1 });
    expect(summary.errors).toEqual([{ index: 1, sku: "N", error: expect.stringMatching(/name/) }]);
  });
});
