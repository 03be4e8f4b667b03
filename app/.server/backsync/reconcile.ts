import type { ProductReportRow, ReviewsClient } from "../reviews";
import type { ProductDigest } from "./backsync-state.repository";

// The full reconciliation: the product report (the service's pre-computed aggregates, no date
// range) read page by page, compared with what was last written per product. A product drifted when
// its published count differs, or its published average differs by more than rounding (the report
// rounds to 2 decimals, the metafields hold 1), or it was never written; a product written with
// ratings that is no longer in the report (or has no published review) drifted to zero. Those
// products are refreshed through the same path as the feed's.

export const REPORT_PAGE = 100;
const AVERAGE_TOLERANCE = 0.051;

export async function* reportRows(
  reviews: Pick<ReviewsClient, "admin">,
  signal?: AbortSignal,
): AsyncGenerator<ProductReportRow> {
  for (let skip = 0; ;) {
    const page = await reviews.admin.getProductReport(
      { limit: REPORT_PAGE, ...(skip ? { skip } : {}), onlyPublished: true },
      { signal },
    );
    for (const row of page.result) yield row;
    skip += page.result.length;
    if (page.result.length === 0 || skip >= page.total) return;
  }
}

/** Pure: does what the report says differ from what was written? */
export function drifted(row: ProductReportRow, written: ProductDigest | undefined): boolean {
  const count = row.reviews.publishedCount;
  const avg = row.reviews.publishedAggregateRating;
  if (!written || written.status === "refused") return count > 0;
  if (written.status === "missing") return false;
  if (count !== written.count) return true;
  return count > 0 && typeof avg === "number" && Math.abs(avg - written.average) > AVERAGE_TOLERANCE;
}

/** The products to refresh: drifted report rows, and written products the report no longer counts. */
export async function findDrift(
  reviews: Pick<ReviewsClient, "admin">,
  written: Map<string, ProductDigest>,
  all: (ids: string[]) => Promise<Map<string, ProductDigest>>,
  signal?: AbortSignal,
): Promise<{ drifted: string[]; rows: number }> {
  const out: string[] = [];
  const seen = new Set<string>();
  let rows = 0;
  let page: ProductReportRow[] = [];
  const flush = async () => {
    const known = await all(page.map((r) => r.sku));
    for (const row of page) if (drifted(row, known.get(row.sku))) out.push(row.sku);
    page = [];
  };
  for await (const row of reportRows(reviews, signal)) {
    rows++;
    seen.add(row.sku);
    page.push(row);
    if (page.length >= 500) await flush();
  }
  await flush();
  for (const id of written.keys()) if (!seen.has(id)) out.push(id);
  return { drifted: out, rows };
}
