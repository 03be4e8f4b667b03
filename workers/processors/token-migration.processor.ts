import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { enqueueTokenMigration, scheduleTokenMigrationJob } from "../../app/.server/jobs";
import { shopsToMigrate, migrateTokens, tokenMigrationDeps } from "../../app/.server/shopify";

// maintenance/"tokens-migrate": every shop still on a non-expiring offline token gets an expiring
// pair (app/.server/shopify/token-migration.ts), whenever such a row appears (an older version's
// install, a restored backup): a job scheduler runs it every TOKEN_MIGRATION_INTERVAL_MS (one
// query when no shop needs it), and a worker that starts and finds such shops queues it at once.
// A shop whose answer stayed lost fails the run; the next asks again with the same original token,
// which Shopify answers with the same pair. Shops waiting for their merchant are not asked.

export async function migrateTokensJob(job: Job, ctx: Pick<WorkerContext, "config" | "db" | "log">) {
  const summary = await migrateTokens(tokenMigrationDeps(ctx.config, { db: ctx.db, log: ctx.log }), {
    onProgress: (done, total) => void job.updateProgress({ done, total }).catch(() => undefined),
  });
  if (summary.failed.length > 0) {
    throw new Error(
      `offline token migration failed for ${summary.failed.length} shop(s): ${summary.failed.map((f) => `${f.shop} (${f.error})`).join("; ")}`,
    );
  }
  return summary;
}

/**
 * Schedules the repeated migration, and queues one now when some shop needs it (answered): both
 * idempotent (one scheduler, one job id while it waits or runs).
 */
export async function scheduleTokenMigration(ctx: Pick<WorkerContext, "db" | "queues" | "config">): Promise<boolean> {
  await scheduleTokenMigrationJob(ctx.queues, ctx.config.TOKEN_MIGRATION_INTERVAL_MS);
  if ((await shopsToMigrate(ctx.db)).length === 0) return false;
  await enqueueTokenMigration(ctx.queues);
  return true;
}
