import type { Queues } from "../queues";
import { enqueueSyncStart } from "../jobs";
import { createSyncRuns, type SyncKind } from "./sync-runs.repository";
import type { Db } from "../db";

/**
 * Starts a full sync of a shop (or joins the one under way): a run row for progress, and the job
 * that starts the bulk operation. Used by the CLI, the admin and the connect flow.
 */
export async function startSync(deps: { db: Db; queues: Queues }, shopId: string, kind: SyncKind, since?: Date) {
  const runs = createSyncRuns(deps.db);
  const active = await runs.active(shopId, kind);
  if (active) return { run: active, joined: true };
  const run = await runs.create(shopId, kind, since);
  await deps.queues.ready(5000);
  await enqueueSyncStart(deps.queues, kind, run.id);
  return { run, joined: false };
}
