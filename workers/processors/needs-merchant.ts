import { DelayedError, type Job } from "bullmq";
import type { WorkerContext } from "../context";
import type { QueueName } from "../../app/.server/queues";
import { type ShopWaitsForMerchantError, shopTokenStates } from "../../app/.server/shopify";
import { MERCHANT_RECHECK_MS, merchantWaits } from "../../app/.server/shops";

/**
 * Parks a job whose shop waits for its merchant (app/.server/shops/merchant-waits.ts): delayed,
 * no attempt spent, listed under the shop for the merchant's return. Throws DelayedError, which is
 * what BullMQ wants from a job that moved itself to the delayed set.
 */
export async function parkForMerchant(
  ctx: Pick<WorkerContext, "db" | "queues" | "log">,
  queue: QueueName,
  job: Job,
  token: string,
  error: ShopWaitsForMerchantError,
): Promise<never> {
  const shop = error.shop;
  await job.moveToDelayed(Date.now() + MERCHANT_RECHECK_MS, token);
  await merchantWaits(ctx.queues).park(shop, { queue, jobId: String(job.id) });
  // The merchant may have come back between the refusal and the listing, and the list been handed
  // back already: then this job wakes itself. (Listed first, checked after: one of the two sees it.)
  const state = await shopTokenStates(ctx.db).get(shop);
  if (state?.state !== "needs-merchant") await job.promote().catch(() => undefined);
  else ctx.log.info({ shop, queue, job: job.id, name: job.name }, "job parked: the shop waits for its merchant");
  throw new DelayedError(`parked: ${error.message}`);
}
