import type { Db } from "../db";

// Which of our Flow triggers each shop's enabled workflows use, as Flow's lifecycle callback said
// (lifecycle-callback.ts). Callbacks may arrive out of order: each carries its own timestamp, and
// only a newer one replaces what is stored.

export interface TriggerUse {
  inUse: boolean;
  /** When Flow said so (the callback's timestamp). */
  changedAt: Date;
}

export type UseRecorded = "recorded" | "older than stored";

export function createFlowTriggerUse(db: Db) {
  return {
    async get(shopId: string, handle: string): Promise<TriggerUse | null> {
      const row = await db.flowTriggerUse.findUnique({ where: { shopId_handle: { shopId, handle } } });
      return row ? { inUse: row.inUse, changedAt: row.changedAt } : null;
    },

    async record(shopId: string, handle: string, use: TriggerUse): Promise<UseRecorded> {
      const key = { shopId_handle: { shopId, handle } };
      // Conditional update first, so two callbacks racing cannot put the older one last.
      const updated = await db.flowTriggerUse.updateMany({
        where: { shopId, handle, changedAt: { lt: use.changedAt } },
        data: use,
      });
      if (updated.count > 0) return "recorded";
      try {
        await db.flowTriggerUse.create({ data: { shopId, handle, ...use } });
        return "recorded";
      } catch (error) {
        if ((error as { code?: string }).code !== "P2002") throw error;
      }
      // A row exists whose time is the same or newer: it stands (an equal time is a repeat).
      const stored = await db.flowTriggerUse.findUnique({ where: key });
      return stored && stored.changedAt >= use.changedAt ? "older than stored" : "recorded";
    },

    /** shop/redact. */
    async forgetShop(shopId: string): Promise<number> {
      return (await db.flowTriggerUse.deleteMany({ where: { shopId } })).count;
    },
  };
}

export type FlowTriggerUse = ReturnType<typeof createFlowTriggerUse>;
