// The access scopes the app asks a merchant for, each with the features that use it. This is the
// one list: SCOPES defaults to it, shopify.app.toml [access_scopes] must say the same, and
// access-scopes.test.ts proves each scope is one Shopify lists, is needed by what the features
// name (the Admin schema tells which scope each document and webhook topic needs), and that
// nothing the app sends needs a scope missing here. A write scope includes its read scope.
//
// Metafields have no scope of their own: a metafield is written with its owner's (a product's
// with write_products); app-data metafields on the app installation need none.

export interface ScopeUse {
  /** What the merchant gets from it. */
  feature: string;
  /**
   * What needs the scope: operation names of the Admin documents (the *documents.ts
   * modules), bulk query builders, webhook topics, or a shopify.app.toml section.
   */
  by: readonly string[];
  /**
   * Writes to a resource's metafields: Shopify asks the owner's write scope (not visible in the
   * schema); `by` then also names a read of that owner.
   */
  writesOwnedMetafields?: true;
}

export const ACCESS_SCOPES = {
  write_products: [
    {
      feature:
        "Catalog sync: products, variants, collections and chosen metafields sent to the reviews service, kept current by the product webhooks",
      by: [
        "ProductById",
        "ProductVariantsPage",
        "bulkProductsQuery",
        "ProductsPage",
        "ProductCollectionsPage",
        "products/create",
        "products/update",
        "products/delete",
      ],
    },
    {
      feature:
        "Star ratings on the storefront: the back-sync writes each product's reviews.rating and reviews.rating_count metafields and enables their standard definitions; the demo and the local storefront read them back",
      by: [
        "MetafieldsSet",
        "MetafieldsDelete",
        "StandardMetafieldDefinitionEnable",
        "ProductMetafield",
        "ProductMetafields",
        "ProductsWithMetafields",
        "ProductRatings",
        "ProductByHandle",
      ],
      writesOwnedMetafields: true,
    },
    {
      feature: "Rate your order: the products of a shopper's orders (title, handle, image)",
      by: [
        "CustomerOrders",
        "CustomerOrder",
        "CustomerOrderLines",
        "RateCheckOrder",
        "RateCheckOrderByName",
        "bulkOrdersQuery",
        "OrdersPage",
        "OrderLineItemsPage",
      ],
    },
  ],
  read_orders: [
    {
      feature:
        "Review requests after delivery: every order as it changes, and the last 60 days of orders when a shop connects",
      by: [
        "orders/create",
        "orders/updated",
        "orders/paid",
        "orders/cancelled",
        "orders/fulfilled",
        "orders/partially_fulfilled",
        "bulkOrdersQuery",
        "OrdersPage",
        "OrderLineItemsPage",
      ],
    },
    {
      feature:
        "Shoppers' own orders: find my order by number, the order history's rate-your-order rows, the rating modal's order name",
      by: [
        "OrderByName",
        "CustomerOrders",
        "CustomerOrder",
        "CustomerOrderLines",
        "RateCheckOrder",
        "RateCheckOrderByName",
      ],
    },
  ],
  read_fulfillments: [
    {
      feature: "Shipment and delivery dates, which decide when a review request goes out",
      by: ["fulfillments/create", "fulfillments/update", "fulfillment_events/create"],
    },
  ],
  read_customers: [
    {
      feature: "Buyers' marketing consent per channel (e-mail, SMS, WhatsApp): the opt-outs of review requests",
      by: [
        "CustomerConsent",
        "bulkOrdersQuery",
        "customers_email_marketing_consent/update",
        "customers_marketing_consent/update",
        "customers_whats_app_marketing_consent/update",
      ],
    },
    {
      feature: "A logged-in shopper's name and e-mail on the reviews and questions they write, and their orders",
      by: ["CustomerIdentity", "CustomerOrders", "CustomerOrder", "RateCheckOrder", "RateCheckOrderByName"],
    },
  ],
  write_metaobject_definitions: [
    {
      feature:
        "Reviews in the Shop app: switches on Shopify's standard product review definition (granted to apps in Shopify's review syndication program) and reads whether it is on",
      by: ["StandardMetaobjectDefinitionEnable", "MetaobjectDefinitionByType"],
    },
  ],
  write_metaobjects: [
    {
      feature:
        "Reviews in the Shop app: each published review written as a standard product_review metaobject, and deleted when the review is removed",
      by: ["MetaobjectUpsert", "MetaobjectByHandle", "MetaobjectDelete"],
    },
  ],
  write_app_proxy: [
    {
      feature: "Reviews, questions and the rating page on the shop's own domain (/apps/reviews)",
      by: ["[app_proxy]"],
    },
  ],
} as const satisfies Record<string, readonly ScopeUse[]>;

/** The scopes, comma-separated, as shopify.app.toml and the SCOPES setting write them. */
export const REQUESTED_SCOPES = Object.keys(ACCESS_SCOPES).join(",");
