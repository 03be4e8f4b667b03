import { isOlderThan, legacyVersion } from "../mapping";
import type { StagedProduct } from "./pending-changes";

/** A staged item's version; items staged by a release before versions carry their epoch ms only. */
export function stagedVersion(item: Pick<StagedProduct, "version" | "sourceUpdatedAt">): string | undefined {
  return item.version ?? legacyVersion(item.sourceUpdatedAt);
}

/** A version as Redis or the mirror holds it: a release before versions kept epoch ms. */
export function storedVersion(value: string | number | null | undefined): string | undefined {
  if (value == null) return undefined;
  return typeof value === "string" && value.includes(":") ? value : legacyVersion(Number(value));
}

/**
 * Whether a product version is older than one already staged or accepted for the product, in the
 * one order of changes (mapping/change-version.ts). A version with none is never taken for an old
 * one; equal versions are one change delivered twice.
 */
export function isSuperseded(
  item: Pick<StagedProduct, "version" | "sourceUpdatedAt">,
  ...known: (string | null | undefined)[]
): boolean {
  return isOlderThan(stagedVersion(item), ...known);
}
