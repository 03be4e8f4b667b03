// The keys that tie the service's catalog, orders and reviews to Shopify products. The catalog
// mapper and the order mapper must derive them the same way, or reviews cannot be tied to products:
// both import them from here.

/** "gid://shopify/Product/123" or 123 → "123". */
export function legacyId(idOrGid: string | number | bigint): string {
  const s = String(idOrGid);
  const slash = s.lastIndexOf("/");
  const tail = slash >= 0 ? s.slice(slash + 1) : s;
  const q = tail.indexOf("?");
  return q >= 0 ? tail.slice(0, q) : tail;
}

// Defined with the pages' product ids (they cannot import .server); the mappers read it here.
export { productGid } from "../../shared/product-ids";

/** The catalog `sku` of a product: the Shopify product id, stable across handle and SKU changes. */
export function productKey(productId: string | number | bigint): string {
  return legacyId(productId);
}

export type VariantKeyMode = "id" | "sku";

/**
 * The key of one variant: its id, or its SKU when the merchant chose SKUs. A variant without a SKU
 * falls back to its id so that it is never sent without a key.
 */
export function variantKey(
  variant: { id: string | number | bigint; sku?: string | null },
  mode: VariantKeyMode,
): string {
  const sku = variant.sku?.trim();
  if (mode === "sku" && sku) return sku;
  return legacyId(variant.id);
}
