import {
  PRODUCT_ID_BASE,
  generateProduct,
  generatedShape,
  productGidOf,
  productIndexOf,
  typedBarcodes,
  type ShopifyProductNode,
} from "./product-generator";
import type { BulkGroupOut, StoreModule } from "./router";
import { PAGED_COLLECTIONS, PAGED_VARIANTS, VARIANT_BARCODES, VARIANTS_PER_QUERY } from "../../app/.server/shopify";

// The store's products: `count` generated ones (made on demand from the seed, so 100,000 of them
// cost nothing until read), plus explicit ones (given at start or added), with edits and deletions
// kept as overrides.

export type ProductPatch = Partial<Omit<ShopifyProductNode, "id">>;

export class ProductCatalog {
  private readonly overrides = new Map<string, ShopifyProductNode>();
  private readonly deleted = new Set<string>();
  // Insertion-ordered: explicit products come after the generated ones, in the order added.
  private readonly explicit = new Map<string, ShopifyProductNode>();
  private nextIndex: number;

  constructor(
    readonly generatedCount: number,
    readonly seed: number,
    initial: readonly ShopifyProductNode[] = [],
  ) {
    this.nextIndex = generatedCount;
    for (const p of initial) {
      this.explicit.set(p.id, structuredClone(p));
      const i = productIndexOf(p.id);
      if (i !== null && i >= this.nextIndex) this.nextIndex = i + 1;
    }
  }

  private isGenerated(gid: string): number | null {
    const i = productIndexOf(gid);
    return i !== null && i < this.generatedCount ? i : null;
  }

  static gid(idOrGid: string | number): string {
    const s = String(idOrGid);
    return s.startsWith("gid://") ? s : `gid://shopify/Product/${s}`;
  }

  get(idOrGid: string | number): ShopifyProductNode | null {
    const gid = ProductCatalog.gid(idOrGid);
    if (this.deleted.has(gid)) return null;
    const explicit = this.explicit.get(gid);
    if (explicit) return explicit;
    const override = this.overrides.get(gid);
    if (override) return override;
    const i = this.isGenerated(gid);
    return i === null ? null : generateProduct(i, this.seed);
  }

  /** Every live product, generated ones first, lazily. */
  *iterate(): Generator<ShopifyProductNode> {
    for (let i = 0; i < this.generatedCount; i++) {
      const gid = productGidOf(i);
      if (this.deleted.has(gid)) continue;
      yield this.overrides.get(gid) ?? generateProduct(i, this.seed);
    }
    for (const p of this.explicit.values()) if (!this.deleted.has(p.id)) yield p;
  }

  /** Live products after `afterGid` in id order (the paged read's cursor), building none it skips. */
  *iterateAfter(afterGid: string | null): Generator<ShopifyProductNode> {
    const afterIndex = afterGid ? productIndexOf(afterGid) : null;
    const generatedFrom =
      afterGid === null
        ? 0
        : afterIndex !== null && afterIndex < this.generatedCount
          ? afterIndex + 1
          : this.generatedCount;
    for (let i = generatedFrom; i < this.generatedCount; i++) {
      const gid = productGidOf(i);
      if (this.deleted.has(gid)) continue;
      yield this.overrides.get(gid) ?? generateProduct(i, this.seed);
    }
    let past =
      afterGid === null ||
      generatedFrom < this.generatedCount ||
      afterIndex === null ||
      afterIndex < this.generatedCount;
    for (const p of this.explicit.values()) {
      if (!past) {
        past = p.id === afterGid;
        continue;
      }
      if (!this.deleted.has(p.id)) yield p;
    }
  }

  /** Live products, without building any. */
  count(): number {
    let n = this.generatedCount;
    for (const gid of this.deleted) if (this.isGenerated(gid) !== null) n--;
    for (const gid of this.explicit.keys()) if (!this.deleted.has(gid)) n++;
    return n;
  }

  /** Lines of a bulk result without building products that were never touched. */
  lineCount(select: { collections: boolean; metafields: boolean }): number {
    let n = 0;
    const count = (p: { variants: number; collections: number; metafields: number }) =>
      1 + p.variants + (select.collections ? p.collections : 0) + (select.metafields ? p.metafields : 0);
    for (let i = 0; i < this.generatedCount; i++) {
      const gid = productGidOf(i);
      if (this.deleted.has(gid)) continue;
      const o = this.overrides.get(gid);
      n += o
        ? count({ variants: o.variants.length, collections: o.collections.length, metafields: o.metafields.length })
        : count(generatedShape(i, this.seed));
    }
    for (const p of this.explicit.values()) {
      if (this.deleted.has(p.id)) continue;
      n += count({ variants: p.variants.length, collections: p.collections.length, metafields: p.metafields.length });
    }
    return n;
  }

  /** Adds a product: a generated one with `patch` applied, under a fresh id. */
  add(patch: ProductPatch = {}, now = new Date()): ShopifyProductNode {
    const index = this.nextIndex++;
    const base = generateProduct(index, this.seed);
    const ts = now.toISOString();
    const node: ShopifyProductNode = {
      ...base,
      createdAt: ts,
      updatedAt: ts,
      ...structuredClone(patch),
      id: productGidOf(index),
    };
    this.explicit.set(node.id, node);
    return node;
  }

  update(
    idOrGid: string | number,
    patch: ProductPatch | ((p: ShopifyProductNode) => ProductPatch),
    now = new Date(),
  ): ShopifyProductNode {
    const current = this.get(idOrGid);
    if (!current) throw new Error(`simulated store: no product ${idOrGid}`);
    const changes = typeof patch === "function" ? patch(structuredClone(current)) : patch;
    const next: ShopifyProductNode = {
      ...current,
      ...structuredClone(changes),
      id: current.id,
      updatedAt: now.toISOString(),
    };
    if (this.explicit.has(current.id)) this.explicit.set(current.id, next);
    else this.overrides.set(current.id, next);
    return next;
  }

  delete(idOrGid: string | number): boolean {
    const current = this.get(idOrGid);
    if (!current) return false;
    this.deleted.add(current.id);
    return true;
  }
}

function cursorOf(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString("base64");
}

function offsetOf(cursor: unknown): number {
  if (typeof cursor !== "string") return 0;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { offset?: unknown };
    return typeof v.offset === "number" ? v.offset : 0;
  } catch {
    return 0;
  }
}

const VARIANT_PAGE = VARIANTS_PER_QUERY;

/** A variant as a bulk line carries it: a bulk query cannot nest the barcodes connection, so `barcode`. */
function bulkVariantOut(v: ShopifyProductNode["variants"][number]) {
  return { id: v.id, title: v.title, sku: v.sku, barcode: v.barcode };
}

/** What returned variants cost once run: each variant and its barcodes connection with what it held. */
const variantsActualCost = (variants: ShopifyProductNode["variants"]) =>
  variants.reduce((n, v) => n + 1 + 2 + Math.min(VARIANT_BARCODES, (v.barcodes ?? typedBarcodes(v.barcode)).length), 0);

/** A variant as the product documents select it, typed barcodes and all (also one patched with `barcode` only). */
function variantOut(v: ShopifyProductNode["variants"][number]) {
  const barcodes = v.barcodes ?? typedBarcodes(v.barcode);
  return { id: v.id, title: v.title, sku: v.sku, barcodes: { nodes: barcodes.slice(0, VARIANT_BARCODES) } };
}

function productFields(p: ShopifyProductNode) {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    descriptionHtml: p.descriptionHtml,
    vendor: p.vendor,
    productType: p.productType,
    status: p.status,
    tags: p.tags,
    updatedAt: p.updatedAt,
    category: p.category,
    featuredMedia: p.featuredMedia,
    options: p.options.map((o) => ({ name: o.name, values: o.values })),
  };
}

function metafieldsOut(p: ShopifyProductNode, keys: string[] | null) {
  return p.metafields
    .filter((m) => !keys || keys.includes(`${m.namespace}.${m.key}`))
    .map((m) => ({ id: m.id, namespace: m.namespace, key: m.key, type: m.type, value: m.value, definition: null }));
}

/** `metafields(keys: ["custom.material", ...])` of a bulk query, or null when it asks for none. */
function bulkMetafieldKeys(query: string): string[] | null {
  const m = /metafields\s*\(\s*keys\s*:\s*(\[[^\]]*\])/.exec(query);
  if (m) {
    try {
      return JSON.parse(m[1]) as string[];
    } catch {
      return [];
    }
  }
  return /\bmetafields\b/.test(query) ? [] : null;
}

function bulkSelection(query: string) {
  const keys = bulkMetafieldKeys(query);
  return {
    collections: /\bcollections\b/.test(query),
    metafields: keys !== null,
    keys: keys && keys.length ? keys : null,
  };
}

const PAGE_MAX = 250;

/** The paged catalog read's cursor: the last product id of the page (opaque to the app). */
const idCursor = (gid: string) => Buffer.from(JSON.stringify({ last: gid })).toString("base64");
function idOf(cursor: unknown): string | null {
  if (typeof cursor !== "string" || !cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { last?: unknown };
    return typeof v.last === "string" ? v.last : null;
  } catch {
    return null;
  }
}

/** The products module: ProductById, ProductVariantsPage, the paged read and the `products` bulk root. */
export function productsModule(catalog: ProductCatalog): StoreModule {
  return {
    name: "products",
    operations: {
      ProductById: {
        handle: (v) => {
          const p = typeof v.id === "string" ? catalog.get(v.id) : null;
          if (!p) return { data: { product: null }, actualCost: 1 };
          const variants = p.variants.slice(0, VARIANT_PAGE);
          const collections = p.collections.slice(0, 10);
          const keys = Array.isArray(v.metafieldKeys) ? (v.metafieldKeys as string[]) : null;
          const metafields = v.withMetafields ? metafieldsOut(p, keys).slice(0, 25) : undefined;
          return {
            data: {
              product: {
                ...productFields(p),
                variants: {
                  nodes: variants.map(variantOut),
                  pageInfo: {
                    hasNextPage: p.variants.length > VARIANT_PAGE,
                    endCursor: variants.length ? cursorOf(variants.length) : null,
                  },
                },
                collections: { nodes: collections.map((c) => ({ id: c.id, title: c.title })) },
                ...(metafields ? { metafields: { nodes: metafields } } : {}),
              },
            },
            actualCost:
              1 + 2 + variantsActualCost(variants) + 2 + collections.length + (metafields ? 2 + metafields.length : 0),
          };
        },
      },
      // The paged read (bulk operations refused): the bulk query's products a page at a time, by id.
      ProductsPage: {
        handle: (v) => {
          const first = Number(v.first);
          if (!Number.isInteger(first) || first < 1 || first > PAGE_MAX) {
            return {
              errors: [{ message: `first: must be between 1 and ${PAGE_MAX}`, extensions: { code: "BAD_REQUEST" } }],
            };
          }
          const keys = Array.isArray(v.metafieldKeys) ? (v.metafieldKeys as string[]) : null;
          const nodes: Record<string, unknown>[] = [];
          let actual = 2;
          let hasNextPage = false;
          for (const p of catalog.iterateAfter(idOf(v.after))) {
            if (nodes.length === first) {
              hasNextPage = true;
              break;
            }
            const variants = p.variants.slice(0, PAGED_VARIANTS);
            const collections = p.collections.slice(0, PAGED_COLLECTIONS);
            const metafields = v.withMetafields
              ? metafieldsOut(p, keys).slice(0, Number(v.metafieldsFirst) || 0)
              : null;
            nodes.push({
              ...productFields(p),
              variants: {
                nodes: variants.map(variantOut),
                pageInfo: {
                  hasNextPage: p.variants.length > PAGED_VARIANTS,
                  endCursor: variants.length ? cursorOf(variants.length) : null,
                },
              },
              ...(v.withCollections
                ? {
                    collections: {
                      nodes: collections.map((c) => ({ id: c.id, title: c.title })),
                      pageInfo: {
                        hasNextPage: p.collections.length > PAGED_COLLECTIONS,
                        endCursor: collections.length ? cursorOf(collections.length) : null,
                      },
                    },
                  }
                : {}),
              ...(metafields ? { metafields: { nodes: metafields } } : {}),
            });
            actual +=
              6 +
              2 +
              variantsActualCost(variants) +
              (v.withCollections ? 2 + collections.length : 0) +
              (metafields ? 2 + 2 * metafields.length : 0);
          }
          const last = nodes.at(-1);
          return {
            data: {
              products: { nodes, pageInfo: { hasNextPage, endCursor: last ? idCursor(String(last.id)) : null } },
            },
            actualCost: actual,
          };
        },
      },
      ProductCollectionsPage: {
        handle: (v) => {
          const p = typeof v.id === "string" ? catalog.get(v.id) : null;
          if (!p) return { data: { product: null }, actualCost: 1 };
          const from = offsetOf(v.after);
          const page = p.collections.slice(from, from + PAGE_MAX);
          const end = from + page.length;
          return {
            data: {
              product: {
                id: p.id,
                collections: {
                  nodes: page.map((c) => ({ id: c.id, title: c.title })),
                  pageInfo: { hasNextPage: end < p.collections.length, endCursor: page.length ? cursorOf(end) : null },
                },
              },
            },
            actualCost: 3 + page.length,
          };
        },
      },
      ProductVariantsPage: {
        handle: (v) => {
          const p = typeof v.id === "string" ? catalog.get(v.id) : null;
          if (!p) return { data: { product: null }, actualCost: 1 };
          const from = offsetOf(v.after);
          const page = p.variants.slice(from, from + VARIANT_PAGE);
          const end = from + page.length;
          return {
            data: {
              product: {
                id: p.id,
                variants: {
                  nodes: page.map(variantOut),
                  pageInfo: { hasNextPage: end < p.variants.length, endCursor: page.length ? cursorOf(end) : null },
                },
              },
            },
            actualCost: 3 + variantsActualCost(page),
          };
        },
      },
    },
    bulkRoots: {
      products: {
        objectCount: (query) => {
          const s = bulkSelection(query);
          // With a key filter, only matching metafields count: build those products (rare in tests).
          if (s.keys) {
            let n = 0;
            for (const p of catalog.iterate())
              n += 1 + p.variants.length + (s.collections ? p.collections.length : 0) + metafieldsOut(p, s.keys).length;
            return n;
          }
          return catalog.lineCount(s);
        },
        rootObjectCount: () => catalog.count(),
        *groups(query): Generator<BulkGroupOut> {
          const s = bulkSelection(query);
          for (const p of catalog.iterate()) {
            const children: Record<string, unknown>[] = p.variants.map((v) => ({
              ...bulkVariantOut(v),
              __parentId: p.id,
            }));
            if (s.collections)
              for (const c of p.collections) children.push({ id: c.id, title: c.title, __parentId: p.id });
            if (s.metafields) for (const m of metafieldsOut(p, s.keys)) children.push({ ...m, __parentId: p.id });
            yield { parent: productFields(p), children };
          }
        },
      },
    },
  };
}

export { PRODUCT_ID_BASE };
