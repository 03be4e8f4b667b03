import { topicAdapter } from "../outcome-adapter";
import { bulkOperationFinished as readFinishedRun } from "../../app/.server/sync";

// bulk_operations/finish: the run that owns the operation reads its result now
// (app/.server/sync/bulk-finish.ts).
export const bulkOperationFinished = topicAdapter(readFinishedRun);
