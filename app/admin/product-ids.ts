// Shopify names a product `gid://shopify/Product/123` in App Bridge and GraphQL, and `123` in the
// app's own records (the product mirror, orders). Pure, for the page and the server alike.

export const productGid = (productId: string) => `gid://shopify/Product/${productId}`;

/** The numeric id of `gid://shopify/Product/123` (or of `123`); null for anything else. */
export function productIdOf(gidOrId: string): string | null {
  const m = /^(?:gid:\/\/shopify\/Product\/)?(\d+)$/.exec(gidOrId.trim());
  return m ? m[1]! : null;
}
