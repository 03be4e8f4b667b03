import { z } from "zod";
import type { JobServices, TopicDelivery } from "../jobs";
import { createSyncRuns, type SyncKind } from "./sync-runs.repository";
import { enqueueRead, switchToPaged } from "./bulk-run";
import { isBulkRefusalCode } from "../shopify";

const payload = z.looseObject({
  admin_graphql_api_id: z.string(),
  status: z.string().optional(),
  error_code: z.string().nullish(),
});

// bulk_operations/finish: the run that owns the operation reads its result now (polling stays as
// the fallback). A finish for an operation we did not start is ignored.
export async function bulkOperationFinished(
  ctx: Pick<JobServices, "db" | "shops" | "queues" | "log">,
  delivery: TopicDelivery,
): Promise<void> {
  const parsed = payload.safeParse(delivery.payload);
  if (!parsed.success) return;
  const shop = await ctx.shops.find(delivery.shop);
  if (!shop) return;
  const runs = createSyncRuns(ctx.db);
  const run = await runs.byBulkOperation(shop.id, parsed.data.admin_graphql_api_id);
  if (!run || run.status !== "running") return;
  if (parsed.data.status?.toLowerCase() === "failed" && isBulkRefusalCode(parsed.data.error_code)) {
    await switchToPaged(
      ctx,
      runs,
      run.id,
      run.kind as SyncKind,
      `bulk operation failed: ${String(parsed.data.error_code).toUpperCase()}`,
    );
    return;
  }
  if (parsed.data.status && parsed.data.status.toLowerCase() !== "completed") {
    await runs.update(run.id, {
      status: "failed",
      error: `bulk operation ${parsed.data.status}${parsed.data.error_code ? `: ${parsed.data.error_code}` : ""}`,
      finishedAt: new Date(),
    });
    return;
  }
  await enqueueRead(ctx, run.kind as SyncKind, run.id);
}
