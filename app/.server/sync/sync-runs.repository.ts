import { z } from "zod";
import type { Db } from "../db";
import { observeSyncRun } from "../metrics";
import type { PageCursor } from "../shopify";
import type { SyncKind } from "../jobs";

export type { SyncKind };

// Full syncs (catalog) and backfills (orders): one row per run, with the progress an operator sees
// and the position a crashed run resumes from.

export const progressSchema = z.object({
  read: z.number().default(0),
  sent: z.number().default(0),
  created: z.number().default(0),
  updated: z.number().default(0),
  unchanged: z.number().default(0),
  failed: z.number().default(0),
  total: z.number().nullable().default(null),
});

export type SyncProgress = z.infer<typeof progressSchema>;

export type SyncStatus = "pending" | "running" | "reading" | "completed" | "failed" | "cancelled";
/** How a run reads Shopify: a bulk operation, or paged queries when Shopify refuses bulk operations. */
export type ReadPath = "bulk" | "paged";

export function parseProgress(text: string): SyncProgress {
  try {
    return progressSchema.parse(JSON.parse(text));
  } catch {
    return progressSchema.parse({});
  }
}

export function addProgress(a: SyncProgress, b: Partial<SyncProgress>): SyncProgress {
  return {
    read: a.read + (b.read ?? 0),
    sent: a.sent + (b.sent ?? 0),
    created: a.created + (b.created ?? 0),
    updated: a.updated + (b.updated ?? 0),
    unchanged: a.unchanged + (b.unchanged ?? 0),
    failed: a.failed + (b.failed ?? 0),
    total: b.total ?? a.total,
  };
}

export function createSyncRuns(db: Db) {
  return {
    async create(shopId: string, kind: SyncKind, since?: Date) {
      const row = await db.syncRun.create({ data: { shopId, kind, status: "pending", since: since ?? null } });
      observeSyncRun(kind, "started");
      return row;
    },
    async get(id: string) {
      return db.syncRun.findUnique({ where: { id } });
    },
    async byBulkOperation(shopId: string, bulkOperationId: string) {
      return db.syncRun.findFirst({ where: { shopId, bulkOperationId } });
    },
    async latest(shopId: string, kind: SyncKind) {
      return db.syncRun.findFirst({ where: { shopId, kind }, orderBy: { startedAt: "desc" } });
    },
    /** A run still under way for this shop and kind (a second start joins it instead). */
    async active(shopId: string, kind: SyncKind) {
      return db.syncRun.findFirst({
        where: { shopId, kind, status: { in: ["pending", "running", "reading"] } },
        orderBy: { startedAt: "desc" },
      });
    },
    async update(
      id: string,
      data: {
        status?: SyncStatus;
        bulkOperationId?: string;
        resultUrl?: string | null;
        error?: string | null;
        finishedAt?: Date;
        readPath?: ReadPath;
        readPathReason?: string | null;
      },
    ) {
      const row = await db.syncRun.update({ where: { id }, data });
      if (data.status === "completed" || data.status === "failed" || data.status === "cancelled")
        observeSyncRun(row.kind, data.status);
      return row;
    },
    /**
     * The finished bulk operation: its result file, and its count of root objects (products,
     * orders) as the progress total. The total goes in only over the progress just read: a runner
     * that saved meanwhile keeps its counts (and knows the total itself, see bulk-run.ts).
     */
    async recordResult(id: string, result: { resultUrl: string | null; total: number | null }) {
      if (result.total !== null) {
        const row = await db.syncRun.findUnique({ where: { id }, select: { progress: true } });
        if (!row) return;
        const progress = JSON.stringify({ ...parseProgress(row.progress), total: result.total });
        const { count } = await db.syncRun.updateMany({
          where: { id, progress: row.progress },
          data: { resultUrl: result.resultUrl, progress },
        });
        if (count === 1) return;
      }
      await db.syncRun.update({ where: { id }, data: { resultUrl: result.resultUrl } });
    },
    /**
     * Progress and resume position move together, after the service accepted a batch, and only from
     * `from`, where this runner last left the run: false when another runner moved it meanwhile.
     */
    async advance(
      id: string,
      progress: SyncProgress,
      resumeAt: number,
      from: number,
      pageCursor?: PageCursor,
    ): Promise<boolean> {
      const data = {
        progress: JSON.stringify(progress),
        resumeAt,
        ...(pageCursor ? { pageCursor: JSON.stringify(pageCursor) } : {}),
      };
      const { count } = await db.syncRun.updateMany({ where: { id, resumeAt: from }, data });
      return count === 1;
    },
  };
}

export type SyncRuns = ReturnType<typeof createSyncRuns>;

/** The paged path's saved cursor; the start when none was saved (or it is unreadable). */
export function parsePageCursor(text: string | null | undefined): PageCursor {
  try {
    const v = JSON.parse(text ?? "") as Partial<PageCursor>;
    if (typeof v.at === "number" && (typeof v.after === "string" || v.after === null))
      return { after: v.after, at: v.at };
  } catch {
    // start over: positions up to resumeAt are skipped, nothing is sent twice
  }
  return { after: null, at: 0 };
}
