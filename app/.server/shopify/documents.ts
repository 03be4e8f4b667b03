import { isoDate } from "./search-filters";

// GraphQL documents of the Admin API that the connector runs. Every document has an operation
// name: logs, cost tracking and the simulated store (sandbox/simulated-store) key on it. Bulk queries
// are strings passed to bulkOperationRunQuery; Shopify allows them at most 5 connections and 2 levels
// of nesting, and no variables, so their few parameters are validated and inlined here.

/** The storefront address products live under: `primaryDomain.url` (e.g. https://shop.example.com). */
export const SHOP_PRIMARY_DOMAIN = /* GraphQL */ `
  query ShopPrimaryDomain {
    shop {
      id
      myshopifyDomain
      primaryDomain {
        url
        host
      }
    }
  }
`;

/**
 * The cheapest call there is (1 point): whether Shopify answers this server at all. The probe of
 * a shop whose calls Shopify refused (IP allowlist) sends it, with backoff, until it passes.
 */
export const ADMIN_ACCESS_PROBE = /* GraphQL */ `
  query AdminAccessProbe {
    shop {
      id
    }
  }
`;

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

const VARIANT_FIELDS = `
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

// What one page of the paged reads carries of each product's or order's own connections; more
// continue with a query of their own. Small, because each multiplies the page's requested cost.
export const PAGED_VARIANTS = 25;
export const PAGED_COLLECTIONS = 10;
export const PAGED_LINE_ITEMS = 10;

/**
 * One product with its first 250 variants, 10 collections and (when `$withMetafields`) the
 * metafields named in `$metafieldKeys` ("namespace.key"). Variables:
 * `{ id, withMetafields: boolean, metafieldKeys: string[] }`. A product with more variants (up to
 * 2,048) continues with PRODUCT_VARIANTS_PAGE from `variants.pageInfo.endCursor`.
 */
export const PRODUCT_BY_ID = /* GraphQL */ `
  query ProductById($id: ID!, $withMetafields: Boolean!, $metafieldKeys: [String!]) {
    product(id: $id) {${PRODUCT_FIELDS}
      variants(first: 250) {
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

/** The next 250 variants of a product. Variables: `{ id, after }`. */
export const PRODUCT_VARIANTS_PAGE = /* GraphQL */ `
  query ProductVariantsPage($id: ID!, $after: String) {
    product(id: $id) {
      id
      variants(first: 250, after: $after) {
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

// A customer's consent per channel, on the address it is about (Customer.emailMarketingConsent and
// smsMarketingConsent are deprecated). SMS: CustomerPhoneNumber.smsMarketingConsent (from 2026-10;
// the number's own marketingState/marketingUpdatedAt are deprecated for it).
const CONSENT_ON_ADDRESSES = `
      defaultEmailAddress {
        marketingState
        marketingUpdatedAt
      }
      defaultPhoneNumber {
        smsMarketingConsent {
          state
          updatedAt
        }
        whatsAppMarketingConsent {
          state
          updatedAt
        }
      }`;

/**
 * One customer's marketing consent on every channel review requests use, with Shopify's times
 * (the newer report wins). The one read the live order path makes for a customer it does not
 * know yet. Variables: `{ id }` (a Customer GID). Contact data is not selected.
 */
export const CUSTOMER_CONSENT = /* GraphQL */ `
  query CustomerConsent($id: ID!) {
    customer(id: $id) {
      id${CONSENT_ON_ADDRESSES}
    }
  }
`;

/**
 * A logged-in shopper's id, names and e-mail, read on the server when they write a review or a
 * question (protected customer data: `read_customers`, level 2). Variables: `{ id }` (Customer GID).
 */
export const CUSTOMER_IDENTITY = /* GraphQL */ `
  query CustomerIdentity($id: ID!) {
    customer(id: $id) {
      id
      firstName
      lastName
      defaultEmailAddress {
        emailAddress
      }
    }
  }
`;

/** An order by the number shoppers see ("find my order"). Variables: `{ query: "name:#1001" }`. */
export const ORDER_BY_NAME = /* GraphQL */ `
  query OrderByName($query: String!) {
    orders(first: 1, query: $query) {
      nodes {
        id
        legacyResourceId
        name
      }
    }
  }
`;

const BULK_OPERATION_FIELDS = `
    id
    status
    errorCode
    createdAt
    completedAt
    objectCount
    rootObjectCount
    fileSize
    url
    partialDataUrl`;

/**
 * Starts a bulk query. Variables: `{ query, groupObjects }`. `groupObjects: true` is what puts
 * children right after their parent in the JSONL (the default became false in 2026-01, and the
 * argument exists from 2025-07): readBulkJsonl streams on that order.
 */
export const BULK_OPERATION_RUN_QUERY = /* GraphQL */ `
  mutation BulkOperationRunQuery($query: String!, $groupObjects: Boolean!) {
    bulkOperationRunQuery(query: $query, groupObjects: $groupObjects) {
      bulkOperation {
        id
        status
        createdAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

/** One bulk operation by id. Variables: `{ id }`. */
export const BULK_OPERATION_STATUS = /* GraphQL */ `
  query BulkOperationStatus($id: ID!) {
    node(id: $id) {
      ... on BulkOperation {${BULK_OPERATION_FIELDS}
      }
    }
  }
`;

/**
 * The app's most recent bulk query on this shop (to find one started before a restart).
 * `currentBulkOperation` is deprecated for `bulkOperations`, whose documented default order is
 * newest first: no sortKey or reverse, so that order is the one relied on.
 */
export const LATEST_BULK_QUERY = /* GraphQL */ `
  query LatestBulkQuery {
    bulkOperations(first: 1, query: "operation_type:query") {
      nodes {${BULK_OPERATION_FIELDS}
      }
    }
  }
`;

/** Cancels a running bulk operation. Variables: `{ id }`. */
export const BULK_OPERATION_CANCEL = /* GraphQL */ `
  mutation BulkOperationCancel($id: ID!) {
    bulkOperationCancel(id: $id) {
      bulkOperation {
        id
        status
      }
      userErrors {
        field
        message
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
          node {${VARIANT_FIELDS}
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

export interface BulkOrdersOptions {
  /** Orders created at or after this instant (Shopify keeps 60 days without read_all_orders). */
  createdSince: string | Date;
}

// The order fields the order adapter reads (orders/graphql-order.adapter.ts), shared by the bulk
// query and the paged read (ORDERS_PAGE) so that both paths hand the adapter the same node.
const ORDER_ADDRESS = `{
          firstName
          lastName
          name
          phone
          countryCodeV2
        }`;

const ORDER_FIELDS = `
        id
        name
        createdAt
        updatedAt
        processedAt
        cancelledAt
        closedAt
        test
        sourceName
        email
        phone
        customerAcceptsMarketing
        displayFinancialStatus
        displayFulfillmentStatus
        customer {
          id
          firstName
          lastName
          defaultEmailAddress {
            emailAddress
            marketingState
            marketingUpdatedAt
          }
          defaultPhoneNumber {
            phoneNumber
            smsMarketingConsent {
              state
              updatedAt
            }
            whatsAppMarketingConsent {
              state
              updatedAt
            }
          }
          defaultAddress {
            countryCodeV2
          }
        }
        shippingAddress ${ORDER_ADDRESS}
        billingAddress ${ORDER_ADDRESS}
        shippingLine {
          code
          title
          source
          carrierIdentifier
          deliveryCategory
        }
        fulfillments(first: 20) {
          id
          status
          displayStatus
          createdAt
          updatedAt
          inTransitAt
          deliveredAt
          estimatedDeliveryAt
          trackingInfo(first: 5) {
            company
            number
            url
          }
        }`;

const ORDER_LINE_ITEM_FIELDS = `
              id
              sku
              name
              title
              variantTitle
              vendor
              quantity
              currentQuantity
              unfulfilledQuantity
              isGiftCard
              requiresShipping
              customAttributes {
                key
                value
              }
              product {
                id
              }
              variant {
                id
                sku
                barcode
              }`;

/**
 * The bulk query for recent orders, with the fields the order mapper reads once the GraphQL node is
 * turned into the webhook shape (orders/graphql-order.adapter.ts). Line items are a connection
 * (child lines with __parentId pointing at the order); fulfillments are a list, inline on the order
 * line. Shopify refuses a connection inside a list field in bulk queries, so neither a
 * fulfillment's line items nor a refund's lines can come along: the adapter infers the first and
 * line quantities stand in for the second. Customer consent comes from GraphQL (webhook payloads
 * dropped it in 2025-01). Two connections, one level under orders.
 */
export function bulkOrdersQuery(options: BulkOrdersOptions): string {
  const since = isoDate("createdSince", options.createdSince);
  return `{
  orders(query: ${JSON.stringify(`created_at:>='${since}'`)}, sortKey: CREATED_AT) {
    edges {
      node {${ORDER_FIELDS}
        lineItems {
          edges {
            node {${ORDER_LINE_ITEM_FIELDS}
            }
          }
        }
      }
    }
  }
}`;
}

/**
 * The paged read of recent orders, for when Shopify refuses bulk operations: the bulk query's
 * fields (ORDER_FIELDS, ORDER_LINE_ITEM_FIELDS) a page at a time, oldest first. Variables:
 * `{ first, after, query }` with `query` as bulkOrdersQuery filters (`created_at:>='…'`). An
 * order with more line items than the page carries continues with ORDER_LINE_ITEMS_PAGE.
 */
export const ORDERS_PAGE = /* GraphQL */ `
  query OrdersPage($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: CREATED_AT) {
      nodes {${ORDER_FIELDS}
        lineItems(first: ${PAGED_LINE_ITEMS}) {
          nodes {${ORDER_LINE_ITEM_FIELDS}
          }
          pageInfo {
            hasNextPage
            endCursor
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

/** The next 250 line items of an order (paged orders read). Variables: `{ id, after }`. */
export const ORDER_LINE_ITEMS_PAGE = /* GraphQL */ `
  query OrderLineItemsPage($id: ID!, $after: String) {
    order(id: $id) {
      id
      lineItems(first: 250, after: $after) {
        nodes {${ORDER_LINE_ITEM_FIELDS}
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

/** The created_at filter of the orders reads (bulk and paged alike). */

const CUSTOMER_ORDER_FIELDS = `
        legacyResourceId
        name
        processedAt
        cancelledAt
        displayFulfillmentStatus
        customer {
          legacyResourceId
        }
        lineItems(first: 50) {
          nodes {
            title
            product {
              legacyResourceId
              handle
              featuredMedia {
                preview {
                  image {
                    url
                  }
                }
              }
            }
          }
        }`;

/**
 * A logged-in customer's orders, newest first, a page at a time (the order history's "rate your
 * order"): what the shopper recognises (number, date, product titles and images) beside the
 * service's review status. Variables: `{ id, first, after }`. No contact data is selected.
 */
export const CUSTOMER_ORDERS = /* GraphQL */ `
  query CustomerOrders($id: ID!, $first: Int!, $after: String) {
    customer(id: $id) {
      id
      orders(first: $first, after: $after, sortKey: PROCESSED_AT, reverse: true) {
        nodes {${CUSTOMER_ORDER_FIELDS}
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

/** One order with its customer, to check it is the asking customer's. Variables: `{ id }` (Order GID). */
export const CUSTOMER_ORDER = /* GraphQL */ `
  query CustomerOrder($id: ID!) {
    order(id: $id) {${CUSTOMER_ORDER_FIELDS}
    }
  }
`;
