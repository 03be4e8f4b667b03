import { catalogPayloadHash } from "../mapping/product.mapper";
import type { CatalogProduct } from "../reviews";
import { NEVER_ACCEPTED, type PendingChanges } from "./pending-changes";
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
  const item = { productId, sku: product.sku, hash: catalogPayloadHash(product), product };
  let outcome = await deps.pending.stageIfChanged(shopId, item);
  if (outcome.kind === "unknown") {
    // First change of this product since Redis last knew it: the mirror answers once.
    const accepted = await deps.mirror.acceptedHashes(shopId, [productId]);
    await deps.pending.rememberAccepted(shopId, new Map([[productId, accepted.get(productId) ?? NEVER_ACCEPTED]]), true);
    outcome = await deps.pending.stageIfChanged(shopId, item);
  }
  if (outcome.kind === "staged") return { staged: true, waitingSince: outcome.waitingSince };
  if (outcome.kind === "unchanged") return { staged: false };
  throw new Error(`accepted hash of ${productId} missing after it was remembered`);
}
