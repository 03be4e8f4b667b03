import { createHash } from "node:crypto";

// Comparing and coalescing catalog payloads: the hash that tells a changed product from an
// unchanged one, and the merge of two payloads for one sku as the service merges them.

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * sha256 (hex) of the payload as canonical JSON: keys sorted, undefined dropped, `variants` sorted
 * (the service unites them, so their order carries no meaning). Other arrays keep their order:
 * categories, keywords and specifications are shown in the order sent.
 */
export function catalogPayloadHash(product: { sku: string; variants?: readonly string[] }): string {
  const normalised = product.variants ? { ...product, variants: [...product.variants].sort() } : product;
  return createHash("sha256").update(canonicalJson(normalised)).digest("hex");
}

/**
 * Two payloads for one sku merged the way the service merges repeated SKUs in a batch (rule 4):
 * fields present in `b` win (categories and specifications too: they are replaced whole), fields only
 * in `a` stay, and variants are united in first-seen order.
 */
export function mergeCatalogProducts<T extends { sku: string; variants?: string[] }>(a: T, b: T): T {
  if (a.sku !== b.sku) throw new Error(`mergeCatalogProducts: different skus (${a.sku}, ${b.sku})`);
  const merged: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) if (v !== undefined && k !== "variants") merged[k] = v;
  if (a.variants || b.variants) merged.variants = [...new Set([...(a.variants ?? []), ...(b.variants ?? [])])];
  return merged as T;
}
