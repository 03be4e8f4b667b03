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

/** What the theme step needs switched on: two product page blocks and the embed (the account block is optional). */
export const THEME_PARTS = ["starRating", "reviews", "embed", "orderReviews"] as const;
export type ThemePart = (typeof THEME_PARTS)[number];
export const REQUIRED_THEME_PARTS: readonly ThemePart[] = ["starRating", "reviews", "embed"];
export type ThemeSetup = Record<ThemePart, boolean>;

const PART_HANDLES: Record<ThemePart, string> = {
  starRating: THEME_BLOCKS.starRating,
  reviews: THEME_BLOCKS.reviews,
  embed: THEME_EMBED,
  orderReviews: THEME_BLOCKS.orderReviews,
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * Which of our blocks and embed are on in the published theme, from App Bridge's
 * `shopify.app.extensions()` answer: a block or embed is on when its status is `active` or the
 * theme has placements of it. Null when the answer is not the documented list (the page then asks
 * the merchant instead); our extension missing from a list means nothing of it is on.
 */
export function themeSetupFromExtensions(answer: unknown): ThemeSetup | null {
  if (!Array.isArray(answer)) return null;
  const ours = answer.find((e) => isRecord(e) && e.type === "theme_app_extension" && e.handle === THEME_EXTENSION);
  const blocks = isRecord(ours) && Array.isArray(ours.activations) ? ours.activations.filter(isRecord) : [];
  const on = (handle: string) =>
    blocks.some(
      (b) =>
        b.handle === handle && (b.status === "active" || (Array.isArray(b.activations) && b.activations.length > 0)),
    );
  return Object.fromEntries(THEME_PARTS.map((part) => [part, on(PART_HANDLES[part])])) as ThemeSetup;
}

export function themeSetupDone(setup: ThemeSetup): boolean {
  return REQUIRED_THEME_PARTS.every((part) => setup[part]);
}
