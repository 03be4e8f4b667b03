import { PAGED_COLLECTIONS, PAGED_VARIANTS, VARIANT_BARCODES, VARIANTS_PER_QUERY } from "./paged-sizes";
import { isoDate } from "./search-filters";

// GraphQL documents of the Admin API about products: one product, the catalog's bulk query and its
// paged read. Conventions as in documents.ts.

// The product fields the catalog mapper reads (mapping/product.schemas.ts, graphqlProductNodeSchema).
const PRODUCT_FIELDS = `
      id
      title
      handle
      descriptionHtml
      vendor
      productType
      status
      tags
      updatedAt
      category {
        id
        name
        fullName
      }
      featuredMedia {
        preview {
          image {
            url
          }
        }
      }
      options {
        name
        values
      }`;

// A variant's typed barcodes (API 2026-10; `barcode`, deprecated, returned the first of them).
const VARIANT_FIELDS = `
          id
          title
          sku
          barcodes(first: ${VARIANT_BARCODES}) {
            nodes {
              type
              value
            }
          }`;

// A bulk query may nest connections two deep (products > variants), so the barcodes connection
// cannot come along: bulk lines carry `barcode`, the first barcode, which the GTIN pick falls back to.
const BULK_VARIANT_FIELDS = `
          id
          title
          sku
          barcode`;

const METAFIELD_FIELDS = `
          id
          namespace
          key
          type
          value
          definition {
            name
          }`;

/**
 * One product with its first 100 variants, 10 collections and (when `$withMetafields`) the
 * metafields named in `$metafieldKeys` ("namespace.key"). Variables:
 * `{ id, withMetafields: boolean, metafieldKeys: string[] }`. A product with more variants (up to
 * 2,048) continues with PRODUCT_VARIANTS_PAGE from `variants.pageInfo.endCursor`.
 */
export const PRODUCT_BY_ID = /* GraphQL */ `
  query ProductById($id: ID!, $withMetafields: Boolean!, $metafieldKeys: [String!]) {
    product(id: $id) {${PRODUCT_FIELDS}
      variants(first: ${VARIANTS_PER_QUERY}) {
        nodes {${VARIANT_FIELDS}
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      collections(first: 10) {
        nodes {
          id
          title
        }
      }
      metafields(first: 25, keys: $metafieldKeys) @include(if: $withMetafields) {
        nodes {${METAFIELD_FIELDS}
        }
      }
    }
  }
`;

/** The next 100 variants of a product. Variables: `{ id, after }`. */
export const PRODUCT_VARIANTS_PAGE = /* GraphQL */ `
  query ProductVariantsPage($id: ID!, $after: String) {
    product(id: $id) {
      id
      variants(first: ${VARIANTS_PER_QUERY}, after: $after) {
        nodes {${VARIANT_FIELDS}
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

const METAFIELD_KEY = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface BulkProductsOptions {
  /** Product metafields "namespace.key" to bring along (settings.catalog.specificationMetafields). */
  metafieldKeys?: readonly string[];
  /** Collection titles, for the category fallback. Default true. */
  collections?: boolean;
  /** Only products updated at or after this instant (reconciliation). */
  updatedSince?: string | Date;
}

/**
 * The bulk query for all products: product fields, variants, and optionally collections and
 * metafields, each a connection one level under products (nesting 2, connections ≤ 4).
 * The JSONL then holds a product line followed by its ProductVariant, Collection and Metafield lines.
 */
export function bulkProductsQuery(options: BulkProductsOptions = {}): string {
  const { metafieldKeys = [], collections = true, updatedSince } = options;
  for (const k of metafieldKeys)
    if (!METAFIELD_KEY.test(k)) throw new Error(`bulkProductsQuery: bad metafield key ${JSON.stringify(k)}`);
  const filter = updatedSince
    ? `(query: ${JSON.stringify(`updated_at:>='${isoDate("updatedSince", updatedSince)}'`)})`
    : "";
  const collectionsPart = collections
    ? `
      collections {
        edges {
          node {
            id
            title
          }
        }
      }`
    : "";
  const metafieldsPart = metafieldKeys.length
    ? `
      metafields(keys: ${JSON.stringify(metafieldKeys)}) {
        edges {
          node {${METAFIELD_FIELDS}
          }
        }
      }`
    : "";
  return `{
  products${filter} {
    edges {
      node {${PRODUCT_FIELDS}
      variants {
        edges {
          node {${BULK_VARIANT_FIELDS}
          }
        }
      }${collectionsPart}${metafieldsPart}
      }
    }
  }
}`;
}

/**
 * The paged read of every product, for when Shopify refuses bulk operations (not enabled for the
 * app, disabled after 31 days unused, no IP allowlist): the bulk query's fields a page at a time.
 * Variables: `{ first, after, withCollections, withMetafields, metafieldKeys, metafieldsFirst }`.
 * Nested connections make a page expensive (Shopify caps one query at 1,000 requested points), so
 * the reader sizes `first` from the cost (paged-reads.ts); a product with more variants or
 * collections than the page carries continues with PRODUCT_VARIANTS_PAGE / PRODUCT_COLLECTIONS_PAGE.
 */
export const PRODUCTS_PAGE = /* GraphQL */ `
  query ProductsPage(
    $first: Int!
    $after: String
    $withCollections: Boolean!
    $withMetafields: Boolean!
    $metafieldKeys: [String!]
    $metafieldsFirst: Int!
  ) {
    products(first: $first, after: $after, sortKey: ID) {
      nodes {${PRODUCT_FIELDS}
        variants(first: ${PAGED_VARIANTS}) {
          nodes {${VARIANT_FIELDS}
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
        collections(first: ${PAGED_COLLECTIONS}) @include(if: $withCollections) {
          nodes {
            id
            title
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
        metafields(first: $metafieldsFirst, keys: $metafieldKeys) @include(if: $withMetafields) {
          nodes {${METAFIELD_FIELDS}
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** The next 250 collections of a product (paged catalog read). Variables: `{ id, after }`. */
export const PRODUCT_COLLECTIONS_PAGE = /* GraphQL */ `
  query ProductCollectionsPage($id: ID!, $after: String) {
    product(id: $id) {
      id
      collections(first: 250, after: $after) {
        nodes {
          id
          title
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;
