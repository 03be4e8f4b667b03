// The simulated Shopify store: see README.md.
export {
  startSimulatedStore,
  type SimulatedStore,
  type SimulatedStoreOptions,
  type RequestRecord,
  type WebhookRecord,
  type ShopStore,
} from "./server";
export { startStoreFleet, type StoreFleet } from "./fleet";
export {
  generateProduct,
  generateProducts,
  generatedShape,
  productGidOf,
  type ShopifyProductNode,
  type ShopifyVariantNode,
} from "./product-generator";
export { ProductCatalog, productsModule, type ProductPatch } from "./products";
export {
  StoreRouter,
  bulkRootField,
  type StoreModule,
  type OperationHandler,
  type BulkRoot,
  type BulkGroupOut,
  type StoreContext,
} from "./router";
export {
  productWebhookPayload,
  productDeletePayload,
  bulkOperationFinishPayload,
  deliverWebhook,
  signWebhook,
  webhookHeaders,
  type WebhookDelivery,
} from "./webhooks";
export {
  OrderBook,
  ordersModule,
  orderBulkGroup,
  orderWebhookPayload,
  fulfillmentWebhookPayload,
  ORDER_ID_BASE,
  type SimOrder,
  type SimLine,
  type SimFulfillment,
  type SimCustomer,
  type OrderChange,
  type OrderWebhook,
  type OrderBookOptions,
} from "./orders";
export {
  MetafieldStore,
  metafieldsModule,
  resolveNamespace,
  digestOf,
  SIM_APP_ID,
  APP_INSTALLATION_GID,
  JSON_VALUE_MAX_BYTES,
  METAFIELDS_SET_MAX,
  type StoredMetafield,
  type MetafieldDefinition,
  type FlowTriggerCall,
} from "./metafields";
export {
  MetaobjectStore,
  metaobjectsModule,
  PRODUCT_REVIEW_TEMPLATE,
  type StoredMetaobject,
  type MetaobjectFieldTemplate,
} from "./metaobjects";
export {
  consentWebhook,
  customerConsentOperation,
  CONSENT_TOPIC,
  type SimCustomerConsent,
  type SimChannel,
  type SimConsentState,
  type SimChannelConsent,
} from "./consent";
export {
  TokenAuthority,
  INVALID_TOKEN_BODY,
  type OfflineSessionFields,
  type TokenUse,
  type TokenStats,
} from "./tokens";
