// The theme app extension's handles (extensions/reviews-theme): its blocks and its app embed, and
// the theme editor links that add a block to the product page or switch the embed on.

export const THEME_EXTENSION = "reviews-theme";
export const THEME_BLOCKS = { starRating: "star-rating", reviews: "reviews", orderReviews: "order-reviews" } as const;
export const THEME_EMBED = "rating-modal";

/** The theme editor with a block of this app added to a template's main section (the product page by default). */
export function addBlockLink(shop: string, apiKey: string, block: string, template = "product"): string {
  const q = new URLSearchParams({ template, addAppBlockId: `${apiKey}/${block}`, target: "mainSection" });
  return `https://${shop}/admin/themes/current/editor?${q}`;
}

/** The theme editor's app embeds with this app's embed switched on. */
export function activateEmbedLink(shop: string, apiKey: string, embed: string = THEME_EMBED): string {
  const q = new URLSearchParams({ context: "apps", activateAppId: `${apiKey}/${embed}` });
  return `https://${shop}/admin/themes/current/editor?${q}`;
}

/** A product's page in the Shopify admin (the catalog key is the product's legacy id). */
export function adminProductLink(shop: string, productId: string): string {
  return `https://${shop}/admin/products/${encodeURIComponent(productId)}`;
}
