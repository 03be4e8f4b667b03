import { createHash } from "node:crypto";
import { productGid } from "../../shared/product-ids";
import { SNAPSHOT_KEY, SNAPSHOT_NAMESPACE, type Snapshot } from "../theme";

// What the back-sync writes on one product, as `metafieldsSet` inputs: the app-owned snapshot the
// theme blocks render, Shopify's standard `reviews.rating` / `reviews.rating_count` that themes
// (Dawn's product cards) and search read, and the app-owned decimal copy of the average that
// storefront filters take. Pure: the writer and the diff use it.

export const RATING = { namespace: "reviews", key: "rating", type: "rating" } as const;
export const RATING_COUNT = { namespace: "reviews", key: "rating_count", type: "number_integer" } as const;
export const SNAPSHOT = { namespace: SNAPSHOT_NAMESPACE, key: SNAPSHOT_KEY, type: "json" } as const;
/**
 * The average as a plain decimal, for storefront filters (Search & Discovery) and automated
 * collections: they accept integer, decimal, text and boolean metafields, not the `rating` type of
 * `reviews.rating`. App-owned, so only the app writes it; its definition is made on connect.
 */
export const RATING_VALUE = { namespace: SNAPSHOT_NAMESPACE, key: "rating_value", type: "number_decimal" } as const;
/** The standard definitions enabled on connect. */
export const STANDARD_DEFINITIONS = [RATING, RATING_COUNT] as const;
/** The scale of the standard `reviews.rating` definition (its validations: 1.0 to 5.0). */
export const RATING_SCALE = { min: "1.0", max: "5.0" } as const;

export interface MetafieldInput {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

export const productIdOfGid = (gid: string) => gid.replace(/^gid:\/\/shopify\/Product\//, "");

/**
 * The three metafields of a product with at least one published review. The average is written with
 * one decimal, as the snapshot and the blocks show it, so cards and product page agree.
 */
export function productMetafields(productId: string, snapshot: Snapshot): MetafieldInput[] {
  const ownerId = productGid(productId);
  return [
    { ownerId, ...SNAPSHOT, value: JSON.stringify(snapshot) },
    {
      ownerId,
      ...RATING,
      value: JSON.stringify({
        value: snapshot.avg.toFixed(1),
        scale_min: RATING_SCALE.min,
        scale_max: RATING_SCALE.max,
      }),
    },
    { ownerId, ...RATING_COUNT, value: String(snapshot.count) },
    { ownerId, ...RATING_VALUE, value: snapshot.avg.toFixed(1) },
  ];
}

/** The identifiers `metafieldsDelete` takes for a product that has no published review any more. */
export function productMetafieldIds(productId: string): { ownerId: string; namespace: string; key: string }[] {
  const ownerId = productGid(productId);
  return [SNAPSHOT, RATING, RATING_COUNT, RATING_VALUE].map((m) => ({ ownerId, namespace: m.namespace, key: m.key }));
}

/** A digest of what a set of inputs would write: equal digests mean nothing to write. */
export function digestOf(inputs: readonly Pick<MetafieldInput, "namespace" | "key" | "type" | "value">[]): string {
  const h = createHash("sha256");
  for (const m of inputs) h.update(`${m.namespace}\u0000${m.key}\u0000${m.type}\u0000${m.value}\u0001`);
  return h.digest("base64url");
}

/** The digest recorded for a product whose metafields were removed (no published review). */
export const CLEARED_DIGEST = "cleared";

/** Splits into calls of at most `size` (25: what `metafieldsSet` takes). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
