// Shopify names a product `gid://shopify/Product/123` in App Bridge and GraphQL, and `123` in the
// app's own records (the product mirror, orders). Pure, for the page and the server alike.

/**
 * The GID of a product, from its numeric id (123, "123") or from a GID (its trailing id kept, a query
 * string dropped). The one definition: the catalog mapper, the back-sync and the pages use it.
 */
export function productGid(id: string | number | bigint): string {
  const s = String(id);
  const tail = s.slice(s.lastIndexOf("/") + 1);
  const q = tail.indexOf("?");
  return `gid://shopify/Product/${q >= 0 ? tail.slice(0, q) : tail}`;
}

/** The numeric id of `gid://shopify/Product/123` (or of `123`); null for anything else. */
export function productIdOf(gidOrId: string): string | null {
  const m = /^(?:gid:\/\/shopify\/Product\/)?(\d+)$/.exec(gidOrId.trim());
  return m ? m[1]! : null;
}
