import { type JobServices, GiveUp, RetryLater, enqueueSyncPoll, enqueueSyncRead } from "../jobs";
import {
  createSyncRuns,
  parsePageCursor,
  parseProgress,
  type SyncKind,
  type SyncProgress,
  type SyncRuns,
} from "./sync-runs.repository";
import {
  isBulkRefusalCode,
  pollBulkOperation,
  readBulkJsonl,
  type BulkGroup,
  type BulkOperationState,
  type PageCursor,
  type PagedItem,
  ShopifyPermanentError,
  isAddressRefused,
} from "../shopify";
import { observeSyncReadPath } from "../metrics";
import { syncShop, type SyncShopDeps } from "../shops";

// What every bulk-operation run (full catalog sync, orders backfill) shares: its job data, loading
// the run and its shop, the polling fallback of bulk_operations/finish, the one read job, and
// marking the run failed when a step fails for good. When Shopify refuses bulk operations, the run
// switches to the paged path (switchToPaged): the same read job, fed by paged queries instead of
// the bulk file, checkpointed with the page cursor beside the position.

/** The one job of a run's step, as the step sees it: no queue, only what it asks of the job. */
export interface RunStep {
  runId: string;
  /** The job's id, for the log. */
  jobId: string | undefined;
  /** This try is the job's last: a failure now fails the run. */
  finalAttempt: boolean;
  /** The step can be put back for later (false when run outside a worker, without the job's lock). */
  canDefer: boolean;
  /** Shows the run's progress on the job (the CLI's and the admin's progress bars read it). */
  reportProgress(progress: SyncProgress): Promise<void>;
}

export type RunDeps = SyncShopDeps & Pick<JobServices, "db" | "queues" | "config" | "log">;

export const cancelledRun = () => ({
  status: "cancelled" as const,
  error: "shop not installed or not connected",
  finishedAt: new Date(),
});

export async function loadRun(ctx: RunDeps, runId: string) {
  const runs = createSyncRuns(ctx.db);
  const run = await runs.get(runId);
  if (!run) throw new GiveUp(`sync run ${runId} not found`);
  const shop = await ctx.db.shop.findUnique({ where: { id: run.shopId } });
  const target = shop ? await syncShop(ctx, shop.domain) : null;
  return { run, runs, target };
}

export async function enqueueRead(ctx: Pick<JobServices, "queues">, kind: SyncKind, runId: string) {
  // Both the finish webhook and the poll may ask: it is one read.
  await enqueueSyncRead(ctx.queues, kind, runId);
}

export async function schedulePoll(ctx: Pick<JobServices, "queues" | "config">, kind: SyncKind, runId: string, n = 1) {
  await enqueueSyncPoll(ctx.queues, kind, runId, n, ctx.config.BULK_POLL_INTERVAL_MS);
}

/** The result file of a completed operation, and its root objects (products, orders) as the run's total. */
async function recordResult(runs: SyncRuns, run: Run, state: BulkOperationState) {
  await runs.recordResult(run.id, { resultUrl: state.url ?? null, total: state.rootObjectCount });
}

/**
 * The polling fallback: reads the run's result when done, fails the run, or polls again later.
 * `poll` is this poll's number (its job id ends with it).
 */
export async function pollRun(ctx: RunDeps, step: RunStep, kind: SyncKind, poll: number) {
  const { run, runs, target } = await loadRun(ctx, step.runId);
  if (!target || !run.bulkOperationId || run.status !== "running") return { done: true };
  const state = await pollBulkOperation(await ctx.adminFor(target.domain), run.bulkOperationId);
  if (state.status === "COMPLETED") {
    await recordResult(runs, run, state);
    await enqueueRead(ctx, kind, run.id);
    return { status: state.status };
  }
  if (state.status === "FAILED" && isBulkRefusalCode(state.errorCode)) {
    return switchToPaged(ctx, runs, run.id, kind, `bulk operation failed: ${state.errorCode}`);
  }
  if (["FAILED", "CANCELED", "EXPIRED"].includes(state.status)) {
    await runs.update(run.id, {
      status: "failed",
      error: `bulk operation ${state.status.toLowerCase()}${state.errorCode ? `: ${state.errorCode}` : ""}`,
      finishedAt: new Date(),
    });
    return { status: state.status };
  }
  await schedulePoll(ctx, kind, run.id, poll + 1);
  return { status: state.status };
}

/**
 * Shopify refused the run's bulk operation (not enabled, disabled after 31 days unused, no IP
 * allowlist): the run reads the same data with paged queries. `reason` is kept on the run for the
 * Sync page and the CLI.
 */
export async function switchToPaged(
  ctx: Pick<JobServices, "queues" | "log">,
  runs: SyncRuns,
  runId: string,
  kind: SyncKind,
  reason: string,
) {
  const row = await runs.update(runId, { status: "reading", readPath: "paged", readPathReason: reason });
  ctx.log.warn({ run: runId, kind, reason }, "bulk operations refused by Shopify: reading with paged queries");
  observeSyncReadPath(kind, "paged");
  await enqueueRead(ctx, kind, row.id);
  return { readPath: "paged" as const, reason };
}

type Run = Awaited<ReturnType<typeof loadRun>>["run"];
type Target = NonNullable<Awaited<ReturnType<typeof loadRun>>["target"]>;

export interface ResultLine {
  position: number;
  group: BulkGroup;
  /** The paged path's cursor to save with this position. */
  resume?: PageCursor;
}

/**
 * Marks the run as being read and opens what it reads: the bulk result file, or on the paged path
 * the pages from the saved cursor (`paged`); the lines after the run's resume point, and the run's
 * total (products, orders) when Shopify counted them.
 */
export async function openResult(
  ctx: Pick<JobServices, "adminFor">,
  runs: SyncRuns,
  run: Run,
  target: Target,
  paged: (from: PageCursor) => AsyncGenerator<PagedItem>,
): Promise<{ total: number | null; lines: AsyncGenerator<ResultLine> }> {
  if (run.readPath === "paged") {
    await runs.update(run.id, { status: "reading" });
    return {
      total: parseProgress(run.progress).total ?? null,
      lines: pagedAfter(paged(parsePageCursor(run.pageCursor)), run.resumeAt),
    };
  }
  let url = run.resultUrl;
  let total = parseProgress(run.progress).total ?? null;
  if (!url && run.bulkOperationId) {
    // The finish webhook came before the poll saw the result: Shopify is asked for it once.
    const state = await pollBulkOperation(await ctx.adminFor(target.domain), run.bulkOperationId);
    url = state.url ?? null;
    total = state.rootObjectCount ?? total;
    await recordResult(runs, run, state);
  }
  await runs.update(run.id, { status: "reading" });
  return { total, lines: linesAfter(url, run.resumeAt) };
}

async function* pagedAfter(items: AsyncGenerator<PagedItem>, resumeAt: number): AsyncGenerator<ResultLine> {
  for await (const item of items) if (item.position > resumeAt) yield item;
}

async function* linesAfter(url: string | null, resumeAt: number): AsyncGenerator<ResultLine> {
  let position = 0;
  for await (const group of readBulkJsonl(url)) {
    position++;
    if (position > resumeAt) yield { position, group };
  }
}

/**
 * Where a runner has got to in its run: progress and resume position are saved together, and only
 * from where this runner left them (see RunTakenOverError). `total` is the one `openResult` found:
 * the progress the runner counts on was read before a total recorded by the runner itself.
 */
export function runCheckpoint(runs: SyncRuns, run: Run, step: RunStep, total: number | null) {
  let at = run.resumeAt;
  return {
    async save(counted: SyncProgress, position: number, resume?: PageCursor) {
      const progress = total === null || counted.total === total ? counted : { ...counted, total };
      if (!(await runs.advance(run.id, progress, position, at, resume))) throw new RunTakenOverError(run.id);
      at = position;
      await step.reportProgress(progress);
    },
  };
}

/**
 * Another runner moved the run on since this one last saved it: this one's job lock lapsed while it
 * was paused (a long GC or a frozen machine), and BullMQ handed the job to another worker.
 */
export class RunTakenOverError extends Error {
  constructor(runId: string) {
    super(`sync run ${runId} was moved on by another runner`);
    this.name = "RunTakenOverError";
  }
}

/**
 * Leaves the run to the runner that moved it on; one batch at most went twice (harmless upstream).
 * A runner that still holds the job comes back one lock period later: it then finds the run done,
 * or resumes it from the other's last save if that one died. One whose lock lapsed just stops.
 */
export function stepAside(
  ctx: Pick<JobServices, "log" | "config">,
  step: RunStep,
  error: RunTakenOverError,
): { takenOver: true } {
  ctx.log.warn({ job: step.jobId, err: error.message }, "sync run taken over; stepping aside");
  const takenOver = { takenOver: true as const };
  // A runner whose lock lapsed cannot be put back: it just stops (`otherwise`).
  if (step.canDefer) throw new RetryLater(error.message, ctx.config.WORKER_LOCK_MS, { otherwise: takenOver });
  return takenOver;
}

export function isPermanent(error: unknown): boolean {
  return error instanceof GiveUp || error instanceof ShopifyPermanentError;
}

/**
 * Runs a step of a run; when it fails for good (a permanent error, or the last attempt) the run is
 * marked failed with the reason, so that the CLI and admin stop waiting for it.
 */
export async function step<T>(ctx: Pick<JobServices, "db">, current: RunStep, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    // Put back for later, or parked by the worker until Shopify accepts this server's address
    // again: the run waits.
    if (error instanceof RetryLater || isAddressRefused(error)) throw error;
    const last = isPermanent(error) || current.finalAttempt;
    if (last) {
      await createSyncRuns(ctx.db)
        .update(current.runId, { status: "failed", error: (error as Error).message, finishedAt: new Date() })
        .catch(() => undefined);
    }
    // An expired result URL or a refused query will not get better with retries.
    if (error instanceof ShopifyPermanentError) throw new GiveUp(error.message);
    throw error;
  }
}
