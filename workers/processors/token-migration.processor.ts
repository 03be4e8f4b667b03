import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { enqueueTokenMigration } from "../../app/.server/jobs";
import { shopsToMigrate, migrateTokens, tokenMigrationDeps } from "../../app/.server/shopify";

// maintenance/"tokens-migrate": every shop still on a non-expiring offline token gets an expiring
// pair (app/.server/shopify/token-migration.ts). Queued when a worker starts and finds such shops;
// one job at a time (fixed id); a shop whose answer stayed lost fails the job, and the retry (with
// backoff) asks again with the same original token, which Shopify answers with the same pair.

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

/** Queues the migration when some shop needs it; idempotent (one job id while it waits or runs). */
export async function scheduleTokenMigration(ctx: Pick<WorkerContext, "db" | "queues">): Promise<boolean> {
  if ((await shopsToMigrate(ctx.db)).length === 0) return false;
  await enqueueTokenMigration(ctx.queues);
  return true;
}
