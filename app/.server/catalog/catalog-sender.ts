import { ReviewsPermanentError, type CatalogBatchResult, type CatalogProduct } from "../reviews";
import type { StagedProduct } from "./pending-changes";

// Sends staged products in as few requests as the service's limits allow (200 items, 10 MB), and
// sorts the answer out per product:
// - per-item `errors` of a 200: those products are refused with the service's reason;
// - 400 for the whole batch: split in halves until the bad item stands alone, then refuse it;
// - 413: halve; a single product over the limit is refused;
// - anything else (401 after refresh, 403, 429, 5xx, network) is thrown to the job, which retries
//   or gives up; the batches already accepted stay accepted (reported through onBatch first).

export const MAX_BATCH_ITEMS = 200;
// The sum of the items' UTF-8 bytes (plus a comma each), kept below the client's 10,000,000-byte
// reading of "10 MB" with room for the `{"products":[...]}` envelope.
export const MAX_BATCH_BYTES = 9_500_000;

export interface Rejected {
  item: StagedProduct;
  error: string;
}

export interface BatchOutcome {
  accepted: StagedProduct[];
  rejected: Rejected[];
  counters: Pick<CatalogBatchResult, "created" | "updated" | "unchanged" | "failed">;
}

export type SendBatch = (products: CatalogProduct[]) => Promise<CatalogBatchResult>;

function byteSize(item: StagedProduct): number {
  return Buffer.byteLength(JSON.stringify(item.product)) + 1;
}

/** Splits into chunks within both limits, keeping order. */
export function chunk(
  items: StagedProduct[],
  maxItems = MAX_BATCH_ITEMS,
  maxBytes = MAX_BATCH_BYTES,
): StagedProduct[][] {
  const chunks: StagedProduct[][] = [];
  let current: StagedProduct[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = byteSize(item);
    if (current.length && (current.length >= maxItems || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

function isWholeBatchRefusal(e: unknown): e is ReviewsPermanentError {
  return e instanceof ReviewsPermanentError && (e.status === 400 || e.reason === "invalid_request" || e.tooLarge);
}

export async function sendCatalog(
  items: StagedProduct[],
  send: SendBatch,
  onBatch: (outcome: BatchOutcome) => Promise<void>,
): Promise<{ requests: number }> {
  let requests = 0;

  async function attempt(batch: StagedProduct[]): Promise<void> {
    requests++;
    let result: CatalogBatchResult;
    try {
      result = await send(batch.map((i) => i.product));
    } catch (error) {
      if (!isWholeBatchRefusal(error)) throw error;
      if (batch.length === 1) {
        const reason = error.tooLarge
          ? "product is over the 10 MB request limit"
          : error.serviceMessage || error.message;
        await onBatch({
          accepted: [],
          rejected: [{ item: batch[0], error: reason }],
          counters: { created: 0, updated: 0, unchanged: 0, failed: 1 },
        });
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await attempt(batch.slice(0, half));
      await attempt(batch.slice(half));
      return;
    }
    const failedAt = new Map<number, string>();
    for (const e of result.errors) failedAt.set(e.index, e.error);
    // A merged repeat could be reported under any of its indexes: refuse every item of that SKU.
    const failedSkus = new Set(result.errors.map((e) => e.sku).filter(Boolean));
    const accepted: StagedProduct[] = [];
    const rejected: Rejected[] = [];
    batch.forEach((item, index) => {
      const reason =
        failedAt.get(index) ??
        (failedSkus.has(item.sku) ? result.errors.find((e) => e.sku === item.sku)?.error : undefined);
      if (reason !== undefined) rejected.push({ item, error: reason || "rejected by the service" });
      else accepted.push(item);
    });
    await onBatch({
      accepted,
      rejected,
      counters: {
        created: result.created,
        updated: result.updated,
        unchanged: result.unchanged,
        failed: result.failed,
      },
    });
  }

  for (const c of chunk(items)) await attempt(c);
  return { requests };
}
