import { z } from "zod";
import type { Db } from "../db/client";
import { productKey } from "../mapping/keys";
import type { ProductData } from "../mapping/order.mapper";
import type { ShopifyOrder } from "../mapping/order.schemas";

// `productData` of order items, from the catalog mirror (the payload the service last accepted for
// each product): an order never costs a Shopify API call when its products are known.

const catalogPayloadSchema = z.looseObject({
  name: z.string().nullish(),
  brand: z.string().nullish(),
  url: z.string().nullish(),
  image: z.string().nullish(),
  categories: z.array(z.string()).nullish(),
  gtin: z.string().nullish(),
  ean: z.string().nullish(),
  mpn: z.string().nullish(),
});

/** The product data of one accepted catalog payload (JSON text), or undefined when unreadable. */
export function productDataFromCatalog(payload: string | null): ProductData | undefined {
  if (!payload) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const parsed = catalogPayloadSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { name, brand, url, image, categories, gtin, ean, mpn } = parsed.data;
  return { name, brand, url, image, categories, gtin, ean, mpn };
}

/** The catalog keys of the products an order's items refer to (what mapOrder will ask for). */
export function orderProductKeys(order: Pick<ShopifyOrder, "line_items">): string[] {
  const keys = new Set<string>();
  for (const line of order.line_items ?? []) {
    if (line.product_id == null || line.gift_card === true) continue;
    const key = productKey(line.product_id);
    if (key) keys.add(key);
  }
  return [...keys];
}

export interface OrderProductData {
  byProduct: Map<string, ProductData>;
  /** Keys the mirror has no accepted payload for: the order goes without, the catalog fetches them. */
  missing: string[];
}

/** One query for all products of the order (an order has at most a few hundred lines). */
export async function loadProductData(db: Db, shopId: string, productIds: readonly string[]): Promise<OrderProductData> {
  const byProduct = new Map<string, ProductData>();
  if (productIds.length) {
    const rows = await db.productMirror.findMany({
      where: { shopId, productId: { in: [...productIds] }, payload: { not: null } },
      select: { productId: true, payload: true },
    });
    for (const row of rows) {
      const data = productDataFromCatalog(row.payload);
      if (data) byProduct.set(row.productId, data);
    }
  }
  return { byProduct, missing: productIds.filter((id) => !byProduct.has(id)) };
}
