import { LINE_ITEMS_PER_QUERY, PAGED_LINE_ITEMS } from "./paged-sizes";
import { isoDate } from "./search-filters";

// GraphQL documents of the Admin API the order sync runs: the bulk query of recent orders and its
// paged read. Conventions as in documents.ts.

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

/** The next 200 line items of an order (paged orders read). Variables: `{ id, after }`. */
export const ORDER_LINE_ITEMS_PAGE = /* GraphQL */ `
  query OrderLineItemsPage($id: ID!, $after: String) {
    order(id: $id) {
      id
      lineItems(first: ${LINE_ITEMS_PER_QUERY}, after: $after) {
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
