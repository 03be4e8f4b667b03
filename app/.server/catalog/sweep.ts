import { scheduleCatalogSweepJob, type JobServices } from "../jobs";
import { scheduleFlush } from "./flush";
import { inBatches } from "../db";

// Changes can wait with no flush coming for them: a flush job that used up its attempts (a service
// outage longer than the backoff's ~4.5 h), or a shop disconnected and connected again (its flushes
// stopped while it was away). Every CATALOG_SWEEP_MS the sweep asks a flush for each shop with
// waiting or in-flight changes; one already planned keeps its time (the flush puts itself back
// until its changes are due), so a sweep costs nothing when all is well. It reads the set of shops
// that staged changes (pending-changes.ts), so its cost follows the shops with changes, not the
// installs or the keys in Redis.

export async function sweepCatalog(ctx: Pick<JobServices, "db" | "pending" | "queues" | "log">) {
  const shopIds = await ctx.pending.shopsWithChanges();
  if (!shopIds.length) return { shops: 0 };
  // In batches: the shops with waiting changes can be thousands (SQLite's parameter limit).
  const shops = await inBatches(shopIds, (ids) =>
    ctx.db.shop.findMany({ where: { id: { in: ids } }, select: { id: true, domain: true } }),
  );
  for (const shop of shops) await scheduleFlush(ctx, shop, 0);
  ctx.log.info({ shops: shops.length }, "catalog sweep: flushes asked for shops with waiting changes");
  return { shops: shops.length };
}

/**
 * Registers the periodic sweep (idempotent: every worker process upserts the same scheduler). The
 * first sweep comes one interval after the first start, not at once: flushes planned before a
 * restart are still in Redis, and a sweep is for changes that waited longer than that. Shops with
 * changes staged by a release before the set of such shops existed join it now.
 */
export async function scheduleCatalogSweep(ctx: Pick<JobServices, "queues" | "config" | "pending">) {
  await ctx.pending.registerStagedBefore();
  await scheduleCatalogSweepJob(ctx.queues, ctx.config.CATALOG_SWEEP_MS);
}
