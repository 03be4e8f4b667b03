// GraphQL documents of the Admin API the storefront runs for a shopper: who a logged-in shopper is,
// their orders, and an order found by its number. Conventions as in documents.ts.

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
