import type { Queues } from "../queues/queues";
import { QueueName, jobIdPart } from "../queues/names";

// How back-sync runs are asked for. One run at a time per shop: a run asked for while one waits is
// the same run; asked for while one runs, it comes right after (BullMQ deduplication keeping the
// last). Runs of a shop also hold the shop's back-sync lock, so a reconciliation never overlaps a
// feed run. The admin calls `requestBackSync` after a moderation; the worker's scheduler every
// BACKSYNC_INTERVAL_MS and, with `reconcile`, every BACKSYNC_RECONCILE_MS.

export const BACKSYNC = "backsync";
export const BACKSYNC_RECONCILE = "backsync-reconcile";
export const BACKSYNC_TICK = "backsync-tick";
export const BACKSYNC_RECONCILE_TICK = "backsync-reconcile-tick";

export interface BackSyncJobData {
  shopId: string;
}

/** Asks for a back-sync run of the shop now (after a moderation in our admin, after connect). */
export async function requestBackSync(
  queues: Pick<Queues, "get">,
  shopId: string,
  opts: { reconcile?: boolean; delayMs?: number } = {},
): Promise<void> {
  const name = opts.reconcile ? BACKSYNC_RECONCILE : BACKSYNC;
  await queues.get(QueueName.maintenance).add(name, { shopId } satisfies BackSyncJobData, {
    delay: opts.delayMs ?? 0,
    deduplication: { id: `${name}-${jobIdPart(shopId)}`, keepLastIfActive: true },
    removeOnComplete: true,
  });
}
