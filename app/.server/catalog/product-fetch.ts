import { z } from "zod";
import type { Queues } from "../queues/queues";
import { QueueName, jobIdPart } from "../queues/names";

// Asking a worker to read one product from the Admin API and stage it as a products/update would:
// for an order naming a product the mirror lacks, and for a refused product the merchant retries
// from the admin. The worker side is workers/processors/order.processor.ts (fetchProductForOrder).

export const FETCH_PRODUCT = "fetch-product";

export const fetchProductJobSchema = z.object({ shop: z.string(), shopId: z.string(), productId: z.string().min(1) });
export type FetchProductJob = z.infer<typeof fetchProductJobSchema>;

// Orders naming the same unknown product in a burst ask for one fetch.
const FETCH_DEDUPE_TTL_MS = 60_000;

export async function requestProductFetch(
  ctx: { queues: Queues },
  shop: { id: string; domain: string },
  productIds: readonly string[],
): Promise<void> {
  const queue = ctx.queues.get(QueueName.catalog);
  await Promise.all(
    productIds.map((productId) => {
      const data: FetchProductJob = { shop: shop.domain, shopId: shop.id, productId };
      const id = `fetch-product-${jobIdPart(shop.id)}-${jobIdPart(productId)}`;
      return queue.add(FETCH_PRODUCT, data, {
        deduplication: { id, ttl: FETCH_DEDUPE_TTL_MS },
        removeOnComplete: true,
      });
    }),
  );
}
