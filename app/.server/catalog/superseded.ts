import type { StagedProduct } from "./pending-changes";

/**
 * Whether a product version is older than one already staged or accepted for the product (Shopify's
 * updatedAt, epoch ms). A version with no updatedAt is never taken for an old one; equal times are
 * two edits in one second, and the later one to arrive wins.
 */
export function isSuperseded(
  item: Pick<StagedProduct, "sourceUpdatedAt">,
  ...known: (number | null | undefined)[]
): boolean {
  if (item.sourceUpdatedAt === undefined) return false;
  return known.some((k) => k != null && k > item.sourceUpdatedAt!);
}
