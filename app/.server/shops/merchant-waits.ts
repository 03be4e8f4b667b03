import type { Logger } from "pino";
import { keyspaceOf, shopTag, type QueueName, type Queues } from "../queues";

// The jobs that met a shop waiting for its merchant (Shopify refused its offline token; see
// shopify/token-provider.ts): each is moved to the delayed set, no attempt spent, and listed here
// under its shop, `<prefix>:needs-merchant:parked:<shop>`. When the merchant opens the app
// (resume-after-reauth.ts) the list is handed back and the jobs run at once, as they would have.
// A parked job also wakes by itself after RECHECK_MS, the safety net should the hand-back be lost:
// still waiting, it meets the token provider's gate (no call to Shopify) and parks again.

export const MERCHANT_RECHECK_MS = 15 * 60_000;

export interface ParkedForMerchant {
  queue: string;
  jobId: string;
}

export function merchantWaits(queues: Pick<Queues, "redis" | "prefix">) {
  const { redis, prefix } = queues;
  const keyspace = keyspaceOf(redis, prefix);
  const key = (shop: string) => `${prefix}:needs-merchant:parked:${shopTag(keyspace, shop)}`;
  return {
    async park(shop: string, job: ParkedForMerchant): Promise<void> {
      await redis.sadd(key(shop), JSON.stringify({ queue: job.queue, jobId: job.jobId }));
    },
    async parkedCount(shop: string): Promise<number> {
      return redis.scard(key(shop));
    },
    /** The shop's parked jobs, forgotten here in the same step (each is handed back once). */
    async take(shop: string): Promise<ParkedForMerchant[]> {
      const res = await redis.multi().smembers(key(shop)).del(key(shop)).exec();
      return ((res?.[0]?.[1] as string[] | undefined) ?? []).map((m) => JSON.parse(m) as ParkedForMerchant);
    },
  };
}

/** The merchant is back: the shop's parked jobs run now. Answers how many were woken. */
export async function resumeParkedForMerchant(ctx: { queues: Queues; log: Logger }, shop: string): Promise<number> {
  let resumed = 0;
  for (const parked of await merchantWaits(ctx.queues).take(shop)) {
    const held = await ctx.queues.get(parked.queue as QueueName).getJob(parked.jobId);
    // Gone, or already woken by its safety delay (waiting or running): nothing to do for it.
    if (!held || !(await held.isDelayed())) continue;
    await held
      .promote()
      .then(() => resumed++)
      .catch((e: Error) => ctx.log.warn({ shop, job: parked.jobId, err: e.message }, "parked job not resumed"));
  }
  return resumed;
}
