import { describe, expect, it } from "vitest";
import { productGid, productIdOf } from "./product-ids";

describe("product ids", () => {
  it("GIVEN App Bridge's gid or the app's numeric id THEN both name the same product, and anything else none", () => {
    expect(productIdOf(productGid("8000001"))).toBe("8000001");
    expect(productIdOf("8000001")).toBe("8000001");
    expect(productIdOf("gid://shopify/ProductVariant/8000001")).toBeNull();
    expect(productIdOf("1; drop")).toBeNull();
  });

  it("GIVEN a number, a numeric string or a GID THEN productGid names the same product", () => {
    for (const id of [
      8000001,
      8000001n,
      "8000001",
      "gid://shopify/Product/8000001",
      "gid://shopify/Product/8000001?x=1",
    ])
      expect(productGid(id)).toBe("gid://shopify/Product/8000001");
  });
});
