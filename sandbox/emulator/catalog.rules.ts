// The catalog update rules of the Admin API, as pure functions (unit tested in
// catalog.rules.test.ts, exercised over HTTP in catalog.test.ts):
//   1. omitted fields are left unchanged;
//   2. `variants` is accumulative (union, first-seen order, no duplicates);
//   3. `categories` and `specifications` are replaced whole;
//   4. repeated SKUs in one batch are merged before applying (scalars: last occurrence; variants:
//      united);
//   5. a new product needs `name` and `categories`, otherwise that item is rejected;
//   6. invalid items are rejected individually, the rest is stored and the request answers 200.
//
// Choices where the spec is silent (also in README.md):
// - `name` must be a non-empty string whenever sent; a new product needs a non-empty `categories`
//   array of non-empty strings. An update may send `categories: []` (rule 3 replaces whole).
// - Types are checked strictly: `null` is not a string, so `brand: null` rejects the item rather
//   than clearing the field. Unknown fields are ignored, as most JSON APIs do.
// - A merged SKU that fails reports the index of its LAST occurrence. An item that fails shape
//   validation is not merged with anything and reports its own index.
// - `processed` = items that failed validation + distinct SKUs among the valid ones, so that
//   `created + updated + unchanged + failed === processed` always holds.
// - `unchanged` means the stored record is deep-equal after applying; `modified` moves only when
//   something changed.
// - Relative `url`s are resolved against the customer's store URL; an unparseable url rejects the
//   item.
import { z } from "zod";
import { describeZodError } from "./http";
import type { StoredProduct } from "./types";

export const MAX_BATCH_ITEMS = 200;
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const str = z.string();
const nonEmpty = z.string().refine((s) => s.trim().length > 0, "must be a non-empty string");

/** Catalog fields without `sku` (the body of `PUT /{customer}/products/{sku}`). */
export const catalogFieldsSchema = z.object({
  name: nonEmpty.optional(),
  categories: z.array(nonEmpty).optional(),
  brand: str.optional(),
  url: str.optional(),
  image: str.optional(),
  description: str.optional(),
  descriptionShort: str.optional(),
  keywords: z.union([str, z.array(str)]).optional(),
  ean: str.optional(),
  gtin: str.optional(),
  mpn: str.optional(),
  reference: str.optional(),
  internalSku: str.optional(),
  externalId: str.optional(),
  status: str.optional(),
  variants: z.array(nonEmpty).optional(),
  specifications: z.array(z.object({ name: str, value: str })).optional(),
});

export const catalogItemSchema = catalogFieldsSchema.extend({ sku: nonEmpty });

export type CatalogFields = z.infer<typeof catalogFieldsSchema>;
export type CatalogItem = z.infer<typeof catalogItemSchema>;

export type ItemValidation = { ok: true; item: CatalogItem } | { ok: false; sku: string | null; error: string };

export function validateItem(raw: unknown): ItemValidation {
  const sku =
    raw && typeof raw === "object" && typeof (raw as { sku?: unknown }).sku === "string"
      ? (raw as { sku: string }).sku
      : null;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { ok: false, sku, error: "item must be an object" };
  if (sku === null) return { ok: false, sku, error: "sku is required and must be a string" };
  const parsed = catalogItemSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, sku, error: describeZodError(parsed.error) };
  return { ok: true, item: parsed.data };
}

/** Union keeping first-seen order (rule 2). */
export function unite(a: readonly string[], b: readonly string[]): string[] {
  const out = [...a];
  const seen = new Set(a);
  for (const v of b) {
    if (!seen.has(v)) {
      seen.add(v);
      out.push(v);
    }
  }
  return out;
}

/** Rule 4: one entry per SKU, carrying the index of the last occurrence, in first-seen order. */
export function mergeRepeated(entries: { index: number; item: CatalogItem }[]): { index: number; item: CatalogItem }[] {
  const bySku = new Map<string, { index: number; item: CatalogItem }>();
  for (const { index, item } of entries) {
    const prev = bySku.get(item.sku);
    if (!prev) {
      bySku.set(item.sku, { index, item: { ...item } });
      continue;
    }
    const merged: CatalogItem = { ...prev.item, ...definedOnly(item) };
    if (prev.item.variants || item.variants) merged.variants = unite(prev.item.variants ?? [], item.variants ?? []);
    bySku.set(item.sku, { index, item: merged });
  }
  return [...bySku.values()];
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Resolves a relative URL against the store URL; null when it cannot be parsed. */
export function normalizeUrl(url: string, storeUrl: string): string | null {
  try {
    return new URL(url, storeUrl).toString();
  } catch {
    return null;
  }
}

export interface ApplyContext {
  customer: string;
  storeUrl: string;
  nowIso: string;
  newId: () => string;
}

export type ApplyResult =
  { outcome: "created" | "updated" | "unchanged"; product: StoredProduct } | { outcome: "failed"; error: string };

/** Rules 1, 2, 3 and 5 for one (already merged) item. */
export function applyItem(existing: StoredProduct | undefined, item: CatalogItem, ctx: ApplyContext): ApplyResult {
  if (!existing) {
    if (item.name === undefined) return { outcome: "failed", error: "name is required for a new product" };
    if (!item.categories || item.categories.length === 0) {
      return { outcome: "failed", error: "categories (non-empty array of strings) is required for a new product" };
    }
  }
  let url: string | undefined;
  if (item.url !== undefined) {
    const normalized = normalizeUrl(item.url, ctx.storeUrl);
    if (normalized === null) return { outcome: "failed", error: "url is not a valid absolute or relative URL" };
    url = normalized;
  }
  const next: StoredProduct = existing
    ? structuredClone(existing)
    : {
        _id: ctx.newId(),
        customer: ctx.customer,
        sku: item.sku,
        name: item.name!,
        categories: [],
        variants: [],
        specifications: [],
        isKit: false,
        created: ctx.nowIso,
        modified: ctx.nowIso,
      };
  const { sku: _sku, variants, url: _url, ...rest } = item;
  Object.assign(next, definedOnly(rest));
  if (url !== undefined) next.url = url;
  if (variants) next.variants = unite(next.variants, variants);
  if (!existing) return { outcome: "created", product: next };
  if (deepEqual(existing, next)) return { outcome: "unchanged", product: existing };
  next.modified = ctx.nowIso;
  return { outcome: "updated", product: next };
}

export interface BatchSummary {
  received: number;
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: { index: number; sku: string | null; error: string }[];
}

/**
 * The whole batch as a pure function: validates, merges, applies. Returns the response body and the
 * records to store (created or updated ones).
 */
export function runBatch(
  products: unknown[],
  lookup: (sku: string) => StoredProduct | undefined,
  ctx: ApplyContext,
): { summary: BatchSummary; writes: StoredProduct[] } {
  const summary: BatchSummary = {
    received: products.length,
    processed: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    errors: [],
  };
  const valid: { index: number; item: CatalogItem }[] = [];
  products.forEach((raw, index) => {
    const v = validateItem(raw);
    if (v.ok) valid.push({ index, item: v.item });
    else summary.errors.push({ index, sku: v.sku, error: v.error });
  });
  const merged = mergeRepeated(valid);
  const writes: StoredProduct[] = [];
  for (const { index, item } of merged) {
    const result = applyItem(lookup(item.sku), item, ctx);
    if (result.outcome === "failed") {
      summary.errors.push({ index, sku: item.sku, error: result.error });
      continue;
    }
    summary[result.outcome]++;
    if (result.outcome !== "unchanged") writes.push(result.product);
  }
  summary.errors.sort((a, b) => a.index - b.index);
  summary.failed = summary.errors.length;
  summary.processed = summary.created + summary.updated + summary.unchanged + summary.failed;
  return { summary, writes };
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
