// Full syncs' machinery: sync runs, bulk operations read or paged, started and finished.
// Other folders import from here only; the rest of the folder is private to it.
export { bulkOperationFinished } from "./bulk-finish";
export {
  RunTakenOverError,
  cancelledRun,
  enqueueRead,
  isPermanent,
  loadRun,
  openResult,
  pollRun,
  runCheckpoint,
  schedulePoll,
  step,
  stepAside,
  switchToPaged,
} from "./bulk-run";
export type { RunDeps, RunStep } from "./bulk-run";
export { startSync } from "./start-sync";
export { addProgress, createSyncRuns, parseProgress } from "./sync-runs.repository";
export type { SyncKind, SyncProgress } from "./sync-runs.repository";
