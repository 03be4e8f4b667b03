import { z } from "zod";
import type { AdminGraphql } from "./admin-graphql";
import type { BulkChild, BulkGroup } from "./bulk-operations";
import { ORDERS_PAGE, ORDER_LINE_ITEMS_PAGE } from "./order-documents";
import { PAGED_COLLECTIONS, PAGED_LINE_ITEMS, PAGED_VARIANTS, VARIANT_BARCODES } from "./paged-sizes";
import { PRODUCTS_PAGE, PRODUCT_COLLECTIONS_PAGE, PRODUCT_VARIANTS_PAGE } from "./product-documents";
import { ordersCreatedSinceFilter } from "./search-filters";
import { ShopifyPermanentError } from "./errors";

// The paged reads that stand in for the bulk queries when Shopify refuses bulk operations. Each
// yields what readBulkJsonl yields for the same query (a parent with its children, each child
// naming its parent in `__parentId`), so the sync that consumes them is the same code either way,
// and each item says where a run can resume from should it stop right after it.
//
// Cost: Shopify refuses a query whose requested cost passes 1,000 points, and counts a connection
// as 2 + first × (what one node costs; 1 per object, 0 per scalar). Products carry three nested
// connections and orders a list of 20 fulfillments, so a page holds what that cap allows (at most
// 250, Shopify's page limit); the Admin client's bucket then spaces the pages by their cost.

export const MAX_REQUESTED_COST = 1_000;
export const MAX_PAGE = 250;

/** Where a paged read resumes: after this cursor (null: from the start), with `at` items before it. */
export interface PageCursor {
  after: string | null;
  at: number;
}

export interface PagedItem {
  /** 1-based, like the position of a parent in a bulk file. */
  position: number;
  group: BulkGroup;
  /**
   * The cursor to save with this position: resuming from it yields the items after this one (or a few before, skipped
   * by position).
   */
  resume: PageCursor;
}

const clampPage = (perNode: number) => Math.max(1, Math.min(MAX_PAGE, Math.floor((MAX_REQUESTED_COST - 2) / perNode)));

/** Products a ProductsPage request asks for, the most its requested cost allows. */
export function productsPageSize(opts: { collections: boolean; metafieldKeys: number }): number {
  // product, category, featuredMedia → preview → image, options: 6 objects; a variant 1 + its barcodes.
  const product =
    6 +
    (2 + PAGED_VARIANTS * (1 + 2 + VARIANT_BARCODES)) +
    (opts.collections ? 2 + PAGED_COLLECTIONS : 0) +
    (opts.metafieldKeys ? 2 + opts.metafieldKeys * 2 : 0);
  return clampPage(product);
}

/** Orders an OrdersPage request asks for. */
export function ordersPageSize(): number {
  // order, customer and its 6 objects, 2 addresses, shippingLine, 20 fulfillments × (1 + 5 tracking infos).
  const order = 1 + 7 + 2 + 1 + 20 * 6 + (2 + PAGED_LINE_ITEMS * 4);
  return clampPage(order);
}

const pageInfo = z.object({
  hasNextPage: z.boolean(),
  endCursor: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
const node = z.looseObject({ id: z.string() });
const connection = z.object({ nodes: z.array(node), pageInfo });
const productsResponse = z.object({ products: connection });
const ordersResponse = z.object({ orders: connection });
const subPage = (field: string) => z.object({ [field]: z.object({ nodes: z.array(node), pageInfo }).nullish() });

type Node = z.infer<typeof node>;

/** The rest of a node's nested connection past its first page, with `query` reading one page after a cursor. */
async function restOf(
  first: { nodes: Node[]; pageInfo: z.infer<typeof pageInfo> } | undefined,
  next: (after: string) => Promise<{ nodes: Node[]; pageInfo: z.infer<typeof pageInfo> } | null>,
): Promise<Node[]> {
  if (!first) return [];
  const all = [...first.nodes];
  let info = first.pageInfo;
  while (info.hasNextPage && info.endCursor) {
    const page = await next(info.endCursor);
    if (!page) break; // the parent went away while read: what was read stands
    all.push(...page.nodes);
    info = page.pageInfo;
  }
  return all;
}

const childrenOf = (parentId: string, nodes: Node[]): BulkChild[] => nodes.map((n) => ({ ...n, __parentId: parentId }));

async function* pages(
  read: (after: string | null) => Promise<z.infer<typeof connection>>,
  toGroup: (n: Node) => Promise<BulkGroup>,
  from: PageCursor,
): AsyncGenerator<PagedItem> {
  let { after, at } = from;
  for (;;) {
    const page = await read(after);
    for (const [i, n] of page.nodes.entries()) {
      const group = await toGroup(n);
      const last = i === page.nodes.length - 1;
      yield {
        position: at + i + 1,
        group,
        resume:
          last && page.pageInfo.endCursor
            ? { after: page.pageInfo.endCursor, at: at + page.nodes.length }
            : { after, at },
      };
    }
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor || page.nodes.length === 0) return;
    at += page.nodes.length;
    after = page.pageInfo.endCursor;
  }
}

export interface ProductPagesOptions {
  metafieldKeys?: readonly string[];
  collections?: boolean;
  from?: PageCursor;
  signal?: AbortSignal;
}

/** Every product as bulkProductsQuery's JSONL groups it, a page at a time. */
export function readProductPages(gql: AdminGraphql, opts: ProductPagesOptions = {}): AsyncGenerator<PagedItem> {
  const metafieldKeys = [...(opts.metafieldKeys ?? [])];
  const collections = opts.collections ?? true;
  const first = productsPageSize({ collections, metafieldKeys: metafieldKeys.length });
  const signal = opts.signal ? { signal: opts.signal } : {};
  const variables = {
    first,
    withCollections: collections,
    withMetafields: metafieldKeys.length > 0,
    metafieldKeys,
    metafieldsFirst: Math.max(1, metafieldKeys.length),
  };
  return pages(
    async (after) => productsResponse.parse(await gql.query(PRODUCTS_PAGE, { ...variables, after }, signal)).products,
    async (n) => {
      const { variants, collections: cols, metafields, ...parent } = n as Node & Record<string, unknown>;
      const id = n.id;
      const more = (doc: string, field: string) => async (after: string) => {
        const data = z
          .object({ product: subPage(field).nullable() })
          .parse(await gql.query(doc, { id, after }, signal));
        return (data.product?.[field] as z.infer<typeof connection> | null | undefined) ?? null;
      };
      const children = [
        ...childrenOf(
          id,
          await restOf(connectionOf(variants, id, "variants"), more(PRODUCT_VARIANTS_PAGE, "variants")),
        ),
        ...(collections
          ? childrenOf(
              id,
              await restOf(connectionOf(cols, id, "collections"), more(PRODUCT_COLLECTIONS_PAGE, "collections")),
            )
          : []),
        ...(metafieldKeys.length
          ? childrenOf(id, z.object({ nodes: z.array(node) }).parse(metafields ?? { nodes: [] }).nodes)
          : []),
      ];
      return { parent, children };
    },
    opts.from ?? { after: null, at: 0 },
  );
}

function connectionOf(value: unknown, id: string, field: string) {
  const parsed = connection.safeParse(value);
  if (!parsed.success) throw new ShopifyPermanentError(`ProductsPage ${id}: ${field} without nodes and pageInfo`, {});
  return parsed.data;
}

export interface OrderPagesOptions {
  createdSince: string | Date;
  from?: PageCursor;
  signal?: AbortSignal;
}

/** The orders created since a date, oldest first, as bulkOrdersQuery's JSONL groups them. */
export function readOrderPages(gql: AdminGraphql, opts: OrderPagesOptions): AsyncGenerator<PagedItem> {
  const variables = { first: ordersPageSize(), query: ordersCreatedSinceFilter(opts.createdSince) };
  const signal = opts.signal ? { signal: opts.signal } : {};
  return pages(
    async (after) => ordersResponse.parse(await gql.query(ORDERS_PAGE, { ...variables, after }, signal)).orders,
    async (n) => {
      const { lineItems, ...parent } = n as Node & Record<string, unknown>;
      const lines = connection.safeParse(lineItems);
      if (!lines.success)
        throw new ShopifyPermanentError(`OrdersPage ${n.id}: lineItems without nodes and pageInfo`, {});
      const rest = await restOf(lines.data, async (after) => {
        const data = z
          .object({ order: subPage("lineItems").nullable() })
          .parse(await gql.query(ORDER_LINE_ITEMS_PAGE, { id: n.id, after }, signal));
        return (data.order?.lineItems as z.infer<typeof connection> | null | undefined) ?? null;
      });
      return { parent, children: childrenOf(n.id, rest) };
    },
    opts.from ?? { after: null, at: 0 },
  );
}
