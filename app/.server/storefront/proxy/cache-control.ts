// `Cache-Control` of proxy answers. Whether Shopify's edge caches proxy answers is not documented,
// so this is a hint and the real cache is ours (Redis). Shopify adds the customer after the
// browser's request, so anything that depends on who is logged in must never be stored by anyone.

export function cacheControl(opts: { dependsOnCustomer: boolean; maxAgeMs: number }): string {
  if (opts.dependsOnCustomer) return "private, no-store";
  const seconds = Math.floor(opts.maxAgeMs / 1000);
  return seconds > 0 ? `public, max-age=${seconds}` : "no-cache";
}

export const NO_STORE = "no-store";
