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

// A line as the history shows it: what the shopper recognises (title, product image) and the
// product id the service rates. 5 points a line (line, product, featuredMedia, preview, image).
const CUSTOMER_ORDER_LINE_FIELDS = `
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
            }`;

/**
 * Line items one history page reads per order. Nested connections multiply: 20 orders each with
 * 50 lines requested 5,083 points, and Shopify refuses any query over 1,000. 20 orders × 8 lines
 * request 883; an order with more continues with CUSTOMER_ORDER_LINES.
 */
export const HISTORY_LINES_PER_ORDER = 8;
/** Line items one CUSTOMER_ORDER_LINES query reads (3 + 100 × 5 = 503 points). */
export const ORDER_LINES_PER_QUERY = 100;

const CUSTOMER_ORDER_FIELDS = `
        legacyResourceId
        name
        processedAt
        cancelledAt
        displayFulfillmentStatus
        customer {
          legacyResourceId
        }`;

const LINES_PAGE = `
          nodes {${CUSTOMER_ORDER_LINE_FIELDS}
          }
          pageInfo {
            hasNextPage
            endCursor
          }`;

/**
 * A logged-in customer's orders, newest first, a page at a time (the order history's "rate your
 * order"): what the shopper recognises (number, date, product titles and images) beside the
 * service's review status, with each order's first HISTORY_LINES_PER_ORDER lines. Variables:
 * `{ id, first, after }`. No contact data is selected.
 */
export const CUSTOMER_ORDERS = /* GraphQL */ `
  query CustomerOrders($id: ID!, $first: Int!, $after: String) {
    customer(id: $id) {
      id
      orders(first: $first, after: $after, sortKey: PROCESSED_AT, reverse: true) {
        nodes {${CUSTOMER_ORDER_FIELDS}
          lineItems(first: ${HISTORY_LINES_PER_ORDER}) {${LINES_PAGE}
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

/**
 * One order with its customer, to check it is the asking customer's, and its first
 * ORDER_LINES_PER_QUERY lines. Variables: `{ id }` (Order GID).
 */
export const CUSTOMER_ORDER = /* GraphQL */ `
  query CustomerOrder($id: ID!) {
    order(id: $id) {${CUSTOMER_ORDER_FIELDS}
      lineItems(first: ${ORDER_LINES_PER_QUERY}) {${LINES_PAGE}
      }
    }
  }
`;

/** An order's lines after a cursor (the rest of a history order). Variables: `{ id, after }` (Order GID). */
export const CUSTOMER_ORDER_LINES = /* GraphQL */ `
  query CustomerOrderLines($id: ID!, $after: String) {
    order(id: $id) {
      id
      lineItems(first: ${ORDER_LINES_PER_QUERY}, after: $after) {${LINES_PAGE}
      }
    }
  }
`;

/**
 * The shop's money format (Liquid's `shop.money_format`) and currency, for prices the storefront
 * prints through the `money` filter (the local storefront reads it as Shopify's renderer knows it).
 * 1 point.
 */
export const SHOP_MONEY_FORMAT = /* GraphQL */ `
  query ShopMoneyFormat {
    shop {
      id
      currencyCode
      currencyFormats {
        moneyFormat
      }
    }
  }
`;

// What the rating modal names, and no more: the order's name, whose it is, and the one product the
// modal shows (the service says which). Requests 6 points (an order and its customer, a product
// and its featured media's image) where CUSTOMER_ORDER's hundred lines request 504: the modal
// opens for every rating link a shopper follows.
const RATE_CHECK_PRODUCT = `
    product(id: $product) {
      legacyResourceId
      title
      handle
      featuredMedia {
        preview {
          image {
            url
          }
        }
      }
    }`;

/** The rating modal's order and product. Variables: `{ id, product }` (Order and Product GIDs). */
export const RATE_CHECK_ORDER = /* GraphQL */ `
  query RateCheckOrder($id: ID!, $product: ID!) {
    order(id: $id) {
      legacyResourceId
      name
      customer {
        legacyResourceId
      }
    }${RATE_CHECK_PRODUCT}
  }
`;

/**
 * The same, the order found by the number shoppers see (shops that send the service names).
 * Variables: `{ query: "name:#1001", product }`. Shopify's search is loose: the caller keeps only
 * the order of exactly that name.
 */
export const RATE_CHECK_ORDER_BY_NAME = /* GraphQL */ `
  query RateCheckOrderByName($query: String!, $product: ID!) {
    orders(first: 1, query: $query) {
      nodes {
        legacyResourceId
        name
        customer {
          legacyResourceId
        }
      }
    }${RATE_CHECK_PRODUCT}
  }
`;
