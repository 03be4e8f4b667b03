import type { ReviewsClient } from "../reviews";

// Products the mirror does not know (gone from the synced catalog, or never synced) named as the
// reviews service names them, so a list shows a name rather than a catalog key. The service has no
// read of many products by key: one product-report read each, in parallel, bounded by the caller's
// page, and a read that fails leaves that product unnamed rather than failing the page.

/** The reads one page may make by default: a few, as a list page shows only some unknown products. */
export const SERVICE_NAME_READS = 10;

export async function serviceProductNames(
  admin: ReviewsClient["admin"],
  keys: readonly string[],
  reads = SERVICE_NAME_READS,
): Promise<Map<string, string>> {
  const named = await Promise.all(
    keys.slice(0, reads).map((sku) =>
      admin
        .getProductReport({ sku, limit: 1 })
        .then((r) => [sku, r.result.find((row) => row.sku === sku)?.name ?? null] as const)
        .catch(() => [sku, null] as const),
    ),
  );
  return new Map(named.filter((n): n is readonly [string, string] => typeof n[1] === "string" && n[1] !== ""));
}
