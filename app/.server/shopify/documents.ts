import { bulkOrdersQuery } from "./order-documents";
import { bulkProductsQuery } from "./product-documents";

// GraphQL documents of the Admin API that the connector runs. Every document has an operation
// name: logs, cost tracking and the simulated store (sandbox/simulated-store) key on it. Bulk queries
// are strings passed to bulkOperationRunQuery; Shopify allows them at most 5 connections and 2 levels
// of nesting, and no variables, so their few parameters are validated and inlined here.
//
// The shop's own documents, a customer's consent and the bulk operations' plumbing are here;
// products, orders and the storefront's shopper reads have a module each (product-documents.ts,
// order-documents.ts, shopper-documents.ts).

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

// The workers' catalog and order syncs import the bulk builders from here; their homes are
// product-documents.ts and order-documents.ts.
export { bulkOrdersQuery, bulkProductsQuery };
