import { ZodError } from "zod";
import { type JobServices, honouringServiceLimit } from "../jobs";
import {
  versionOf,
  catalogPayloadHash,
  categoriesWithSource,
  fromBulkProduct,
  mapProduct,
  sourceUpdatedAtOf,
  productKey,
} from "../mapping";
import {
  addProgress,
  parseProgress,
  RunTakenOverError,
  cancelledRun,
  enqueueRead,
  openResult,
  loadRun,
  pollRun,
  runCheckpoint,
  schedulePoll,
  stepAside,
  step,
  switchToPaged,
  type RunDeps,
  type RunStep,
} from "../sync";
import {
  bulkProductsQuery,
  BulkOperationsRefusedError,
  startBulkQuery,
  readProductPages,
  type PageCursor,
} from "../shopify";
import { observeSyncReadPath } from "../metrics";
import { isSuperseded } from "./superseded";
import { MAX_BATCH_ITEMS, sendCatalog, type Rejected } from "./catalog-sender";
import type { StagedProduct } from "./pending-changes";
import { recordOutcome, underSendLock } from "./flush";

// Full catalog sync: a bulk operation over every product with its variants (and collections, and
// the merchant's chosen metafields), read as a stream, mapped, and sent in batches of 200 like live
// changes. `resumeAt` counts the products already handled, saved after each accepted batch, so a
// run whose worker died picks up where it stopped without resending what was accepted. When
// Shopify refuses bulk operations the same products are read with paged queries (ProductsPage),
// and the page cursor is saved with `resumeAt`.

export type CatalogSyncDeps = RunDeps & Pick<JobServices, "adminFor" | "reviewsFor" | "pending" | "mirror">;

export const catalogStart = (ctx: CatalogSyncDeps, current: RunStep) =>
  step(ctx, current, () => startCatalogRun(ctx, current));
export const catalogPoll = (ctx: CatalogSyncDeps, current: RunStep, poll: number) =>
  step(ctx, current, () => pollRun(ctx, current, "catalog", poll));
export const catalogRead = (ctx: CatalogSyncDeps, current: RunStep) =>
  step(ctx, current, () => readCatalogRun(ctx, current));

async function startCatalogRun(ctx: CatalogSyncDeps, current: RunStep) {
  const { run, runs, target } = await loadRun(ctx, current.runId);
  if (!target) return runs.update(run.id, cancelledRun());
  if (run.bulkOperationId) return { already: run.bulkOperationId };
  // A start that switched to the paged path and died before queueing the read: queued again (one job).
  if (run.readPath === "paged") return enqueueRead(ctx, "catalog", run.id).then(() => ({ readPath: "paged" }));
  const gql = await ctx.adminFor(target.domain);
  const metafieldKeys = target.settings.catalog.specificationMetafields;
  let id: string;
  try {
    id = await startBulkQuery(gql, bulkProductsQuery({ metafieldKeys }));
  } catch (error) {
    if (error instanceof BulkOperationsRefusedError) return switchToPaged(ctx, runs, run.id, "catalog", error.message);
    throw error;
  }
  await runs.update(run.id, { status: "running", bulkOperationId: id, readPath: "bulk", readPathReason: null });
  observeSyncReadPath("catalog", "bulk");
  // bulk_operations/finish drives the read; polling is the fallback when the webhook is late or lost.
  await schedulePoll(ctx, "catalog", run.id);
  return { bulkOperationId: id };
}

/** One line an operator can read: a schema error names the fields and what was wrong with them. */
function reasonOf(error: unknown): string {
  if (error instanceof ZodError)
    return error.issues.map((i) => `${i.path.join(".") || "product"}: ${i.message}`).join("; ");
  return (error as Error).message;
}

async function readCatalogRun(ctx: CatalogSyncDeps, current: RunStep) {
  const { run, runs, target } = await loadRun(ctx, current.runId);
  if (!target) return runs.update(run.id, cancelledRun());
  if (run.status === "completed") return { done: true };
  const client = await ctx.reviewsFor(target.domain);
  const mapCtx = { primaryDomain: target.primaryDomain, settings: target.settings.catalog };
  const selected = { collections: true, metafields: target.settings.catalog.specificationMetafields.length > 0 };

  const paged = async function* (from: PageCursor) {
    const gql = await ctx.adminFor(target.domain);
    yield* readProductPages(gql, {
      metafieldKeys: target.settings.catalog.specificationMetafields,
      collections: selected.collections,
      from,
    });
  };
  const result = await openResult(ctx, runs, run, target, paged);
  const checkpoint = runCheckpoint(runs, run, current, result.total);
  let progress = parseProgress(run.progress);
  let position = run.resumeAt;
  let resume: PageCursor | undefined;
  let batch: StagedProduct[] = [];
  let read = 0;
  // Lines the mapper could not use: refused on our side, shown by `sync errors` like the service's refusals.
  let unmapped: Rejected[] = [];

  const flush = async () => {
    const items = batch;
    batch = [];
    const ids = items.map((i) => i.productId);
    const [accepted, newest] = await Promise.all([
      ctx.mirror.acceptedVersions(target.id, ids),
      ctx.pending.newest(target.id, ids),
    ]);
    // The snapshot is as old as the bulk operation: a live change staged or accepted since is newer.
    const changed = items.filter((i) => {
      const held = accepted.get(i.productId);
      return held?.hash !== i.hash && !isSuperseded(i, held?.version, newest.get(i.productId));
    });
    if (unmapped.length) await ctx.mirror.recordRejected(target.id, unmapped);
    let counters = { created: 0, updated: 0, unchanged: items.length - changed.length, failed: unmapped.length };
    if (changed.length) {
      // Under the send lock, fenced like the live flush (catalog/send-fence.ts): a snapshot request
      // that outlived the lock is followed by the newest accepted form of its products.
      await underSendLock(ctx, target, client, (send, fence) =>
        honouringServiceLimit(() =>
          sendCatalog(changed, send, async (o) => {
            await fence([...o.accepted, ...o.rejected.map((r) => r.item)]);
            await recordOutcome(ctx, target.id)(o);
            counters = {
              created: counters.created + o.counters.created,
              updated: counters.updated + o.counters.updated,
              unchanged: counters.unchanged + o.counters.unchanged,
              failed: counters.failed + o.rejected.length,
            };
          }),
        ),
      );
    }
    progress = addProgress(progress, { read, sent: changed.length, ...counters });
    read = 0;
    unmapped = [];
    await checkpoint.save(progress, position, resume);
  };

  try {
    for await (const line of result.lines) {
      const { group } = line;
      position = line.position;
      resume = line.resume;
      read++;
      try {
        const input = fromBulkProduct(group, selected);
        const product = mapProduct(input, mapCtx);
        batch.push({
          productId: productKey(String(group.parent.id)),
          sku: product.sku,
          hash: catalogPayloadHash(product),
          product,
          sourceUpdatedAt: sourceUpdatedAtOf(input),
          version: versionOf(input.updatedAt, { readAt: run.startedAt }),
          categoriesFrom: categoriesWithSource(input, mapCtx.settings.defaultCategory).from,
        });
      } catch (error) {
        // One odd line must not stop a catalog of thousands: recorded, logged, and the sync goes on.
        const productId = productKey(String(group.parent.id ?? "unknown"));
        unmapped.push({
          item: { productId, sku: productId, hash: "", product: { sku: productId } },
          error: `not mapped: ${reasonOf(error)}`,
        });
        ctx.log.warn(
          { shop: target.domain, product: group.parent.id, err: (error as Error).message },
          "product not mapped",
        );
      }
      if (batch.length + unmapped.length >= MAX_BATCH_ITEMS) await flush();
    }
    if (batch.length || read) await flush();
  } catch (error) {
    if (error instanceof RunTakenOverError) return stepAside(ctx, current, error);
    throw error;
  }
  await runs.update(run.id, { status: "completed", finishedAt: new Date(), error: null });
  ctx.log.info({ shop: target.domain, run: run.id, progress, resumedFrom: run.resumeAt }, "catalog sync completed");
  return progress;
}
