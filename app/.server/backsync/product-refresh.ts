import type { Logger } from "pino";
import { ReviewsPermanentError, type ReviewsClient, type SummaryResponse } from "../reviews";
import type { AdminGraphql } from "../shopify";
import type { BackSyncState, ProductDigest } from "./backsync-state.repository";
import { MetafieldBatcher, deleteMetafields, type ProductOutcome } from "./metafield-writer";
import { CLEARED_DIGEST, digestOf, productMetafieldIds, productMetafields } from "./rating-metafields";
import { buildSnapshot } from "../theme";

// Brings the metafields of some products up to date: the Client API summary of each (first page,
// default order) → the snapshot → the three metafields → a digest compared with what was last
// written. Only products whose digest changed are written (25 metafields a call); products with no
// published review left get their metafields removed (the standard `reviews.rating` cannot say
// "no rating": its scale starts at 1, and themes show stars whenever it exists). Products Shopify no
// longer has are recorded as missing and never read again.

/** Reviews in the snapshot's first page (the block's first page; the proxy serves the next). */
export const SNAPSHOT_PAGE_SIZE = 10;
/** Summaries read at once from the service. */
const READ_CONCURRENCY = 8;
/** Products read, compared and queued before their digests are saved (bounds memory at 10k+ products). */
const WINDOW = 200;
const SHOPIFY_ID = /^[1-9]\d{0,19}$/;

export interface RefreshDeps {
  shopId: string;
  gql: AdminGraphql;
  reviews: Pick<ReviewsClient, "storefront">;
  state: BackSyncState;
  log: Logger;
  signal?: AbortSignal;
}

export interface RefreshStats {
  products: number;
  written: number;
  unchanged: number;
  cleared: number;
  missing: number;
  refused: number;
  skippedMissing: number;
  metafieldsWritten: number;
  setCalls: number;
  deleteCalls: number;
}

export const emptyStats = (): RefreshStats => ({
  products: 0,
  written: 0,
  unchanged: 0,
  cleared: 0,
  missing: 0,
  refused: 0,
  skippedMissing: 0,
  metafieldsWritten: 0,
  setCalls: 0,
  deleteCalls: 0,
});

async function summaryOf(deps: RefreshDeps, productId: string): Promise<SummaryResponse | null> {
  try {
    return await deps.reviews.storefront.getSummary(
      productId,
      { pageSize: SNAPSHOT_PAGE_SIZE },
      { signal: deps.signal },
    );
  } catch (error) {
    // A product the service does not know has no reviews.
    if (error instanceof ReviewsPermanentError && error.reason === "not_found") return null;
    throw error;
  }
}

async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function refreshProducts(deps: RefreshDeps, productIds: readonly string[]): Promise<RefreshStats> {
  const stats = emptyStats();
  const ids = [...new Set(productIds)];
  stats.products = ids.length;
  // What each queued product will record once its last metafield is written.
  const planned = new Map<string, ProductDigest>();
  const batcher = new MetafieldBatcher(deps.gql, deps.log, async (outcomes: ProductOutcome[]) => {
    const rows: ProductDigest[] = [];
    for (const o of outcomes) {
      const plan = planned.get(o.productKey);
      planned.delete(o.productKey);
      if (o.result === "written" && plan) {
        stats.written++;
        rows.push(plan);
      } else if (o.result === "missing") {
        stats.missing++;
        deps.log.info({ product: o.productKey }, "product no longer in Shopify: skipped and recorded");
        rows.push({ productId: o.productKey, digest: "missing", count: 0, average: 0, status: "missing" });
      } else if (o.result === "refused") {
        stats.refused++;
        // Recorded with an empty digest: the next change of the product tries again.
        rows.push({ productId: o.productKey, digest: "", count: 0, average: 0, status: "refused" });
      }
    }
    await deps.state.record(deps.shopId, rows);
  });

  for (let w = 0; w < ids.length; w += WINDOW) {
    const window = ids.slice(w, w + WINDOW);
    const known = await deps.state.digests(deps.shopId, window);
    const live = window.filter((id) => {
      // Only Shopify product ids can own metafields: a SKU of another shape (reviews imported at the
      // service under their own keys) is skipped like a product Shopify no longer has.
      if (SHOPIFY_ID.test(id) && known.get(id)?.status !== "missing") return true;
      stats.skippedMissing++;
      return false;
    });
    const summaries = await mapPool(live, READ_CONCURRENCY, (id) => summaryOf(deps, id));
    const toClear: string[] = [];
    for (const [i, productId] of live.entries()) {
      const summary = summaries[i];
      const before = known.get(productId);
      const snapshot = summary ? buildSnapshot(productId, summary, { pageSize: SNAPSHOT_PAGE_SIZE }) : null;
      if (!snapshot || snapshot.count === 0) {
        if (before && before.digest !== CLEARED_DIGEST) toClear.push(productId);
        else stats.unchanged++;
        continue;
      }
      const inputs = productMetafields(productId, snapshot);
      const digest = digestOf(inputs);
      if (before?.digest === digest) {
        stats.unchanged++;
        continue;
      }
      planned.set(productId, { productId, digest, count: snapshot.count, average: snapshot.avg, status: "written" });
      await batcher.add(productId, inputs);
    }
    if (toClear.length) {
      stats.deleteCalls += await deleteMetafields(deps.gql, toClear.flatMap(productMetafieldIds));
      await deps.state.recordCleared(deps.shopId, toClear);
      stats.cleared += toClear.length;
    }
  }
  await batcher.flush();
  stats.metafieldsWritten = batcher.stats.metafields;
  stats.setCalls = batcher.stats.calls;
  return stats;
}
