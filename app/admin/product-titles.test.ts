import { describe, expect, it } from "vitest";
import { needsKey, sharedTitles } from "./product-titles";

describe("products told apart by title", () => {
  it("GIVEN two products with one title THEN both rows need their key, and a title of one product does not", () => {
    const products = [
      { title: "T-shirt", key: "tee-red" },
      { title: "t-shirt ", key: "tee-blue" },
      { title: "Mug", key: "mug" },
    ];
    const shared = sharedTitles(products);
    expect(shared).toEqual(new Set(["t-shirt"]));
    expect(products.map((p) => needsKey(p, shared))).toEqual([true, true, false]);
  });

  it("GIVEN one product listed on several rows (its reviews) THEN its title is not shared", () => {
    const shared = sharedTitles([
      { title: "Mug", key: "mug" },
      { title: "Mug", key: "mug" },
    ]);
    expect(shared.size).toBe(0);
  });

  it("GIVEN a product whose title is unknown THEN its key is what names it", () => {
    expect(needsKey({ title: null, key: "8000001" }, new Set())).toBe(true);
  });
});
