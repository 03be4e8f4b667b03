import { z } from "zod";
import { createTtlCache } from "../cache";
import type { Db } from "../db";
import { productKey, type ProductData, type ShopifyOrder } from "../mapping";

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
export async function loadProductData(
  db: Db,
  shopId: string,
  productIds: readonly string[],
): Promise<OrderProductData> {
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

export interface ProductDataCache {
  load(db: Db, shopId: string, productIds: readonly string[]): Promise<OrderProductData>;
}

/**
 * loadProductData with what it found kept `ttlMs` per process: Shopify sends every order change as
 * two or three webhooks at once, and they name the same products. A product changed in the catalog
 * reaches the orders mapped here within `ttlMs` (0: every order reads the mirror).
 */
export function createProductDataCache(ttlMs: number, maxEntries = 5000): ProductDataCache {
  const entries = createTtlCache<ProductData>({ max: maxEntries, ttlMs });
  return {
    async load(db, shopId, productIds) {
      if (ttlMs <= 0) return loadProductData(db, shopId, productIds);
      const byProduct = new Map<string, ProductData>();
      const unknown: string[] = [];
      for (const id of productIds) {
        const hit = entries.get(`${shopId}:${id}`);
        if (hit) byProduct.set(id, hit);
        else unknown.push(id);
      }
      if (unknown.length) {
        const read = await loadProductData(db, shopId, unknown);
        for (const [id, data] of read.byProduct) {
          byProduct.set(id, data);
          entries.set(`${shopId}:${id}`, data);
        }
      }
      return { byProduct, missing: productIds.filter((id) => !byProduct.has(id)) };
    },
  };
}
