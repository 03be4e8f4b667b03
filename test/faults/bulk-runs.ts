import { eventually } from "../helpers/contexts";
import { bulkOperationFinishPayload, type SimulatedStore } from "../../sandbox/simulated-store";
import { startSync } from "../../app/.server/sync/start-sync";
import type { SyncKind } from "../../app/.server/sync/sync-runs.repository";
import type { WebStack } from "./web-stack";

// Full syncs and backfills driven as Shopify drives them: the run starts a bulk operation, and
// when the operation completes Shopify delivers bulk_operations/finish through the app's route.
// (The workers' polling, BULK_POLL_INTERVAL_MS, would get there too; the webhook keeps the drills short.)

/** Starts a run of the shop and, in the background, delivers the finish of its bulk operation. */
export async function startRun(
  s: WebStack,
  store: SimulatedStore,
  shop: { id: string; domain: string },
  kind: SyncKind,
) {
  const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shop.id, kind);
  const finish = (async () => {
    const started = await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.bulkOperationId !== null,
      60_000,
    );
    const op = await eventually(
      async () => store.bulkOperations().find((o) => o.id === started.bulkOperationId),
      (o) => o?.status === "COMPLETED",
      60_000,
    );
    await s.deliver("bulk_operations/finish", shop.domain, bulkOperationFinishPayload(op!));
  })();
  // A finish that could not be delivered leaves the run to the polling fallback: not a failure here.
  finish.catch(() => undefined);
  return run;
}
