// Pure rules: Shopify products and orders to the service's payloads, order status, consent policy.
// Other folders import from here only; the rest of the folder is private to it.
export { CONSENT_CHANNELS, consentState, optOutsFor, pickOptOuts, sameOptOuts } from "./consent-policy";
export type { ConsentChannel, ConsentState, ConsentStates, OptOuts } from "./consent-policy";
export { legacyId, productGid, productKey } from "./keys";
export { deliveryDueAt, deriveOrderStatus } from "./order-status";
export type { FulfillmentEvent, OrderStatusSettings } from "./order-status";
export { parseTime } from "./order.dates";
export type { ProductData } from "./order.items";
export { exclusionReason, isExcluded, mapOrder, orderFingerprint, orderName, orderUpdatedAt } from "./order.mapper";
export type { OrderMapContext } from "./order.mapper";
export { shopifyFulfillmentSchema, shopifyOrderSchema } from "./order.schemas";
export type { MappedOrder, ShopifyFulfillment, ShopifyLineItem, ShopifyOrder } from "./order.schemas";
export {
  catalogPayloadHash,
  categoriesWithSource,
  fromBulkProduct,
  fromGraphqlProduct,
  fromWebhookProduct,
  mapProduct,
  mergeCatalogProducts,
  sourceUpdatedAtOf,
  webhookProductDeleteSchema,
  webhookProductSchema,
} from "./product.mapper";
export type { CategorySource } from "./product.mapper";
export { graphqlProductNodeSchema, graphqlVariantSchema } from "./product.schemas";
export type { GraphqlProductNode } from "./product.schemas";
export { deliverySource, isOlderThan, legacyVersion, versionOf } from "./change-version";
export type { ChangeSource } from "./change-version";
