import { catalogPayloadHash, type CategorySource } from "../mapping";
import type { CatalogProduct } from "../reviews";
import { NEVER_ACCEPTED, type PendingChanges } from "./pending-changes";
import type { ProductMirror } from "./product-mirror.repository";

export type StageResult = { staged: false; stale?: true } | { staged: true; waitingSince: number };

/** What is known of the Shopify product version a payload maps. */
export interface SourceVersion {
  /** Shopify's updatedAt of that version (epoch ms); undefined when the input has none. */
  sourceUpdatedAt?: number;
  /** The change's version (mapping/change-version.ts): what decides which of two changes is newer. */
  version?: string;
  categoriesFrom?: CategorySource;
}

/**
 * Stages one mapped product for the shop's next batch, unless the service already holds exactly
 * this payload (inventory and price updates fire products/update without changing it), or a newer
 * version of the product was already staged or accepted (a webhook arriving late or out of order).
 */
export async function stageProduct(
  deps: { mirror: ProductMirror; pending: PendingChanges },
  shopId: string,
  productId: string,
  product: CatalogProduct,
  version: SourceVersion = {},
): Promise<StageResult> {
  const item = { productId, sku: product.sku, hash: catalogPayloadHash(product), product, ...version };
  let outcome = await deps.pending.stageIfChanged(shopId, item);
  if (outcome.kind === "unknown") {
    // First change of this product since Redis last knew it: the mirror answers once.
    const accepted = (await deps.mirror.acceptedVersions(shopId, [productId])).get(productId);
    if (accepted?.version != null) await deps.pending.rememberNewest(shopId, new Map([[productId, accepted.version]]));
    await deps.pending.rememberAccepted(shopId, new Map([[productId, accepted?.hash ?? NEVER_ACCEPTED]]), true);
    outcome = await deps.pending.stageIfChanged(shopId, item);
  }
  if (outcome.kind === "staged") return { staged: true, waitingSince: outcome.waitingSince };
  if (outcome.kind === "unchanged") return { staged: false };
  if (outcome.kind === "stale") return { staged: false, stale: true };
  throw new Error(`accepted hash of ${productId} missing after it was remembered`);
}
