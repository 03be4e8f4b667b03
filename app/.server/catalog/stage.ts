import { catalogPayloadHash } from "../mapping/product.mapper";
import type { CatalogProduct } from "../reviews";
import type { PendingChanges } from "./pending-changes";
import type { ProductMirror } from "./product-mirror.repository";

export type StageResult = { staged: false } | { staged: true; waitingSince: number };

/**
 * Stages one mapped product for the shop's next batch, unless the service already holds exactly
 * this payload (inventory and price updates fire products/update without changing it).
 */
export async function stageProduct(
  deps: { mirror: ProductMirror; pending: PendingChanges },
  shopId: string,
  productId: string,
  product: CatalogProduct,
): Promise<StageResult> {
  const hash = catalogPayloadHash(product);
  const accepted = await deps.mirror.acceptedHashes(shopId, [productId]);
  if (accepted.get(productId) === hash) return { staged: false };
  const waitingSince = await deps.pending.stage(shopId, { productId, sku: product.sku, hash, product });
  return { staged: true, waitingSince };
}
