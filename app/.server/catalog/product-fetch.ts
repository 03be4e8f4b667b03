import type { Queues } from "../queues";
import { type FetchProductJob, type JobServices, GiveUp, enqueueProductFetch, shopifyThrottleAsRetry } from "../jobs";
import {
  productGid,
  productKey,
  categoriesWithSource,
  fromGraphqlProduct,
  mapProduct,
  sourceUpdatedAtOf,
  versionOf,
} from "../mapping";
import {
  fetchProduct,
  NoOfflineSessionError,
  ShopifyApiError,
  ShopifyThrottledError,
  isAddressRefused,
} from "../shopify";
import { syncShop, type SyncShopDeps } from "../shops";
import { stageProduct } from "./stage";
import { scheduleFlushAfterStage } from "./flush";

// Asking a worker to read one product from the Admin API and stage it as a products/update would:
// for an order naming a product the mirror lacks, and for a refused product the merchant retries
// from the admin. The worker side is fetchProductForOrder below.

export async function requestProductFetch(
  ctx: { queues: Queues },
  shop: { id: string; domain: string },
  productIds: readonly string[],
): Promise<void> {
  await Promise.all(productIds.map((productId) => enqueueProductFetch(ctx.queues, shop, productId)));
}

export type FetchProductDeps = SyncShopDeps & Pick<JobServices, "config" | "queues" | "pending" | "mirror">;

/** Reads one product from the Admin API and stages it like a products/update would. */
export async function fetchProductForOrder(ctx: FetchProductDeps, data: FetchProductJob) {
  const shop = await syncShop(ctx, data.shop);
  if (!shop) return { skipped: true };
  let node: Awaited<ReturnType<typeof fetchProduct>>;
  const readAt = new Date();
  try {
    const gql = await ctx.adminFor(shop.domain);
    node = await fetchProduct(gql, productGid(data.productId), {
      metafieldKeys: shop.settings.catalog.specificationMetafields,
    });
  } catch (error) {
    if (error instanceof ShopifyThrottledError) throw shopifyThrottleAsRetry(error);
    if (isAddressRefused(error)) throw error; // parked until Shopify accepts this server again
    if (error instanceof NoOfflineSessionError || (error instanceof ShopifyApiError && !error.retryable)) {
      throw new GiveUp(`product ${data.productId} not fetched: ${(error as Error).message}`);
    }
    throw error;
  }
  // Deleted since the order was placed: nothing to add to the catalog.
  if (!node) return { found: false };
  const input = fromGraphqlProduct(node);
  const product = mapProduct(input, { primaryDomain: shop.primaryDomain, settings: shop.settings.catalog });
  const version = {
    sourceUpdatedAt: sourceUpdatedAtOf(input),
    version: versionOf(input.updatedAt, { readAt }),
    categoriesFrom: categoriesWithSource(input, shop.settings.catalog.defaultCategory).from,
  };
  const result = await stageProduct(ctx, shop.id, productKey(data.productId), product, version);
  if (result.staged) await scheduleFlushAfterStage(ctx, shop, result.waitingSince);
  return { found: true, staged: result.staged };
}
