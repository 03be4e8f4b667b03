import { describe, expect, it } from "vitest";
import { productGid, productIdOf } from "./product-ids";

describe("product ids", () => {
  it("GIVEN App Bridge's gid or the app's numeric id THEN both name the same product, and anything else none", () => {
    expect(productIdOf(productGid("8000001"))).toBe("8000001");
    expect(productIdOf("8000001")).toBe("8000001");
    expect(productIdOf("gid://shopify/ProductVariant/8000001")).toBeNull();
    expect(productIdOf("1; drop")).toBeNull();
  });
});
