import { describe, expect, it } from "vitest";
import { shopProduct } from "./shop-products";
import { groupProducts } from "./product-groups";

const strict = { allowHttp: false };

describe("the shop's products as admin pages show them", () => {
  it("GIVEN an accepted catalog payload THEN its title, key and image", () => {
    const row = {
      productId: "8000001",
      sku: "8000001",
      payload: JSON.stringify({
        sku: "8000001",
        name: "Canvas Tote",
        image: "https://cdn.shopify.com/s/files/tote.jpg",
      }),
    };
    expect(shopProduct(row, strict)).toEqual({
      productId: "8000001",
      key: "8000001",
      title: "Canvas Tote",
      image: "https://cdn.shopify.com/s/files/tote.jpg",
    });
  });

  it("GIVEN an image URL the URL rule refuses THEN no image, the title stays", () => {
    for (const image of [
      "javascript:alert(1)",
      "http://cdn.example.com/a.jpg",
      "//evil.example/a.jpg",
      " https://cdn.example.com/a.jpg",
    ]) {
      const row = { productId: "1", sku: "k", payload: JSON.stringify({ name: "Mug", image }) };
      expect(shopProduct(row, strict)).toMatchObject({ title: "Mug", image: null });
    }
  });

  it("GIVEN an unreadable or empty payload THEN the product is named by its key alone", () => {
    expect(shopProduct({ productId: "1", sku: "k", payload: "{not json" }, strict)).toEqual({
      productId: "1",
      key: "k",
      title: null,
      image: null,
    });
    expect(shopProduct({ productId: "1", sku: "k", payload: JSON.stringify({ name: "  " }) }, strict).title).toBeNull();
  });

  it("GIVEN a group's keys THEN its products in the group's order, a key the mirror lacks kept as a key", () => {
    const tote = { productId: "8000001", key: "tote", title: "Canvas Tote", image: null };
    expect(groupProducts(["gone", "tote"], new Map([["tote", tote]]))).toEqual([
      { productId: null, key: "gone", title: null, image: null },
      tote,
    ]);
  });
});
