import type { AppContext } from "../context.server";
import { createProductMirror } from "../catalog";
import { safeUrl, type UrlPolicy, urlPolicy } from "../security";

// The shop's products as admin pages show them (title, image, the key the service knows them
// by), from the app's product mirror: what the service last accepted, so what a group or a
// review can name. The Shopify Admin API is not asked: a page of groups costs one query.

export interface ShopProduct {
  /** Shopify's product id (legacy, numeric). */
  productId: string;
  /** The catalog key the service knows the product by. */
  key: string;
  title: string | null;
  /** Checked by the URL rule; null when there is none or it was dropped. */
  image: string | null;
}

/** One mirror row as the admin shows it. The payload's image came from outside: checked. Pure. */
export function shopProduct(
  row: { productId: string; sku: string; payload: string | null },
  policy: UrlPolicy = urlPolicy(),
): ShopProduct {
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = row.payload ? JSON.parse(row.payload) : {};
    if (parsed && typeof parsed === "object") payload = parsed as Record<string, unknown>;
  } catch {
    // An unreadable payload shows the product by its key.
  }
  const title = typeof payload.name === "string" && payload.name.trim() ? payload.name : null;
  return {
    productId: row.productId,
    key: row.sku,
    title,
    image: safeUrl(payload.image, "admin.product_image", policy),
  };
}

export async function shopProducts(
  ctx: AppContext,
  domain: string,
  by: { productIds?: readonly string[]; keys?: readonly string[] } = {},
): Promise<ShopProduct[]> {
  const shop = await ctx.shops.get(domain);
  const rows = await createProductMirror(ctx.db).accepted(shop.id, by);
  return rows.map((r) => shopProduct(r));
}
