import type { Logger } from "pino";
import { productGid } from "../../shared/product-ids";
import type { AdminGraphql } from "../shopify";
import type { BackSyncState } from "./backsync-state.repository";
import { MetafieldBatcher } from "./metafield-writer";
import { RATING_VALUE } from "./rating-metafields";

// A shop whose ratings were written before the filterable decimal existed gets it once, when its
// definitions are brought up to date: from the averages the back-sync last wrote (its digests hold
// them), 25 products a call, without reading a product's reviews again. Neither the feed nor the
// reconciliation would: they rewrite a product only when its reviews change. A product deleted
// meanwhile is skipped; the digests stay as they were, so a product's next refresh writes all four
// metafields and records the digest that includes the decimal.

export async function backfillRatingValues(deps: {
  shopId: string;
  gql: AdminGraphql;
  state: Pick<BackSyncState, "written">;
  log: Logger;
}): Promise<{ products: number; calls: number }> {
  const written = await deps.state.written(deps.shopId);
  const batcher = new MetafieldBatcher(deps.gql, deps.log, async () => {});
  for (const d of written) {
    const value = d.average.toFixed(1);
    await batcher.add(d.productId, [{ ownerId: productGid(d.productId), ...RATING_VALUE, value }]);
  }
  await batcher.flush();
  return { products: written.length, calls: batcher.stats.calls };
}
