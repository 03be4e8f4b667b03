import { legacyId, productGid } from "./keys";
import { graphqlProductNodeSchema, type GraphqlProductNode, type WebhookProduct } from "./product.schemas";

// The Shopify product as the mapper reads it, whatever it came from: a products/* webhook, a
// `product(id:)` answer or a bulk-operation line. Pure, like the mapper.

/** The one shape both adapters produce. `null` for collections/metafields means "not carried". */
export interface ShopifyProductInput {
  /** Product GID. */
  id: string;
  title: string | null;
  descriptionHtml: string | null;
  vendor: string | null;
  productType: string | null;
  handle: string | null;
  /** Upper-case as in GraphQL; unknown values are kept and mapped to "inactive". */
  status: string | null;
  tags: string[];
  category: { name: string | null; fullName: string | null } | null;
  imageUrl: string | null;
  options: { name: string; values: string[] }[];
  /** `barcodes`: the typed list (API 2026-10) when the source carries it. */
  variants: {
    id: string;
    title: string | null;
    sku: string | null;
    barcode: string | null;
    barcodes?: { type: string | null; value: string }[];
  }[];
  /** Collection titles; null when the source does not carry them (webhooks). */
  collections: string[] | null;
  /** Metafields; null when the source does not carry them. */
  metafields: { namespace: string; key: string; value: string; type: string | null; name: string | null }[] | null;
  updatedAt: string | null;
}

function splitTags(tags: string | readonly string[] | null | undefined): string[] {
  if (tags == null) return [];
  return typeof tags === "string" ? tags.split(",") : [...tags];
}

function metafieldValue(value: unknown): string {
  if (value == null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The REST webhook payload of products/create and products/update (already zod-parsed). */
export function fromWebhookProduct(p: WebhookProduct): ShopifyProductInput {
  const images = [...(p.images ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const firstMedia = p.media?.find((m) => m.preview_image?.src);
  return {
    // admin_graphql_api_id is a string; the numeric id may have lost precision in JSON.parse.
    id: p.admin_graphql_api_id || productGid(p.id),
    title: p.title ?? null,
    descriptionHtml: p.body_html ?? null,
    vendor: p.vendor ?? null,
    productType: p.product_type ?? null,
    handle: p.handle ?? null,
    status: p.status ? p.status.toUpperCase() : null,
    tags: splitTags(p.tags),
    category: p.category ? { name: p.category.name ?? null, fullName: p.category.full_name ?? null } : null,
    imageUrl: p.image?.src || images.find((i) => i.src)?.src || firstMedia?.preview_image?.src || null,
    options: (p.options ?? []).map((o) => ({ name: o.name ?? "", values: o.values ?? [] })),
    variants: [...(p.variants ?? [])]
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
      .map((v) => ({
        id: v.admin_graphql_api_id || `gid://shopify/ProductVariant/${legacyId(v.id)}`,
        title: v.title ?? null,
        sku: v.sku ?? null,
        barcode: v.barcode ?? null,
      })),
    collections: null,
    metafields: p.metafields
      ? p.metafields.map((m) => ({
          namespace: m.namespace,
          key: m.key,
          value: metafieldValue(m.value),
          type: m.type ?? null,
          name: null,
        }))
      : null,
    updatedAt: p.updated_at ?? null,
  };
}

type Connection<T> = readonly T[] | { nodes: readonly T[] } | { edges: readonly { node: T }[] };

function isList<T>(c: Connection<T>): c is readonly T[] {
  return Array.isArray(c);
}

function nodesOf<T>(c: Connection<T> | null | undefined): T[] | null {
  if (c == null) return null;
  if (isList(c)) return [...c];
  if ("nodes" in c) return [...c.nodes];
  return c.edges.map((e: { node: T }) => e.node);
}

/**
 * A GraphQL product node (camelCase, GIDs): a `product(id:)` answer, or a bulk parent with its
 * children already joined as arrays (see `fromBulkProduct`).
 */
export function fromGraphqlProduct(n: GraphqlProductNode): ShopifyProductInput {
  const collections = nodesOf(n.collections);
  const metafields = nodesOf(n.metafields);
  return {
    id: n.id,
    title: n.title ?? null,
    descriptionHtml: n.descriptionHtml ?? null,
    vendor: n.vendor ?? null,
    productType: n.productType ?? null,
    handle: n.handle ?? null,
    status: n.status ? n.status.toUpperCase() : null,
    tags: splitTags(n.tags),
    category: n.category ? { name: n.category.name ?? null, fullName: n.category.fullName ?? null } : null,
    imageUrl: n.featuredMedia?.preview?.image?.url || n.featuredMedia?.image?.url || n.featuredImage?.url || null,
    options: (n.options ?? []).map((o) => ({
      name: o.name ?? "",
      values: o.values ?? o.optionValues?.map((v) => v.name) ?? [],
    })),
    variants: (nodesOf(n.variants) ?? []).map((v) => {
      const barcodes = (nodesOf(v.barcodes) ?? []).map((b) => ({ type: b.type ?? null, value: b.value }));
      return {
        id: v.id,
        title: v.title ?? null,
        sku: v.sku ?? null,
        // Shopify's `barcode` is the first of `barcodes`: the same value whichever the source read.
        barcode: v.barcode ?? barcodes[0]?.value ?? null,
        ...(v.barcodes ? { barcodes } : {}),
      };
    }),
    collections: collections ? collections.map((c) => c.title ?? "") : null,
    metafields: metafields
      ? metafields.map((m) => ({
          namespace: m.namespace,
          key: m.key,
          value: m.value ?? "",
          type: m.type ?? null,
          name: m.definition?.name ?? null,
        }))
      : null,
    updatedAt: typeof n.updatedAt === "string" ? n.updatedAt : null,
  };
}

/** The GID type name: "gid://shopify/ProductVariant/1" → "ProductVariant". */
export function gidType(gid: unknown): string | null {
  if (typeof gid !== "string") return null;
  const m = /^gid:\/\/shopify\/([^/]+)\//.exec(gid);
  return m ? m[1] : null;
}

/**
 * A bulk-operation product: the parent line and its child lines (variants, collections,
 * metafields, told apart by their GID type). `selected` says which connections the bulk query asked
 * for, so that "no child lines" reads as "none" rather than "unknown".
 */
export function bulkProductNode(
  group: { parent: Record<string, unknown>; children: readonly Record<string, unknown>[] },
  selected: { collections?: boolean; metafields?: boolean } = { collections: true, metafields: true },
): Record<string, unknown> {
  const byType = (t: string) => group.children.filter((c) => gidType(c.id) === t);
  const node: Record<string, unknown> = { ...group.parent, variants: byType("ProductVariant") };
  if (selected.collections) node.collections = byType("Collection");
  if (selected.metafields) node.metafields = byType("Metafield");
  return node;
}

/** `bulkProductNode`, validated: the bulk JSONL is an edge like any other. */
export function fromBulkProduct(
  group: { parent: Record<string, unknown>; children: readonly Record<string, unknown>[] },
  selected?: { collections?: boolean; metafields?: boolean },
): ShopifyProductInput {
  return fromGraphqlProduct(graphqlProductNodeSchema.parse(bulkProductNode(group, selected)));
}
