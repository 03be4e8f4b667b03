// The Shopify Admin API client: GraphQL, bulk operations, documents, errors, tokens, the address gate.
// Other folders import from here only; the rest of the folder is private to it.
export { gatedAdminFor } from "./address-gate";
export type { AdminFor } from "./address-gate";
export { createAddressRefusals } from "./address-refusals";
export type { AddressRefusals, ParkedJob } from "./address-refusals";
export { NoOfflineSessionError, adminForShopOf } from "./admin-for-shop";
export { createAdminGraphql } from "./admin-graphql";
export type { AdminGraphql } from "./admin-graphql";
export { SHOPIFY_API_VERSION } from "./api-version";
export {
  BulkOperationsRefusedError,
  isBulkRefusalCode,
  pollBulkOperation,
  readBulkJsonl,
  startBulkQuery,
} from "./bulk-operations";
export type { BulkGroup, BulkOperationState } from "./bulk-operations";
export { ADMIN_ACCESS_PROBE, CUSTOMER_CONSENT, bulkOrdersQuery, bulkProductsQuery } from "./documents";
export {
  ShopifyAddressRefusedError,
  ShopifyApiError,
  ShopifyAuthError,
  ShopifyPermanentError,
  ShopifyThrottledError,
  ShopifyUserErrors,
  isAddressRefused,
} from "./errors";
export { ShopWaitsForMerchantError, waitsForMerchant } from "./errors";
export type { UserError } from "./errors";
export { lazyAdminGraphql } from "./lazy-admin-graphql";
export {
  APP_INSTALLATION_ID,
  CURRENT_APP_INSTALLATION,
  FLOW_TRIGGER_RECEIVE,
  METAFIELDS_DELETE,
  METAFIELDS_SET,
  METAFIELD_DEFINITION_CREATE,
  PRODUCTS_WITH_METAFIELDS,
  PRODUCT_BY_HANDLE,
  PRODUCT_RATINGS,
  STANDARD_METAFIELD_DEFINITION_ENABLE,
} from "./metafield-documents";
export {
  METAOBJECT_BY_HANDLE,
  METAOBJECT_DEFINITION_BY_TYPE,
  METAOBJECT_DELETE,
  METAOBJECT_UPSERT,
  STANDARD_METAOBJECT_DEFINITION_ENABLE,
} from "./metaobject-documents";
export { offlineSessionId, sessionColumns } from "./offline-sessions";
export { readOrderPages, readProductPages } from "./paged-reads";
export type { PageCursor, PagedItem } from "./paged-reads";
export {
  LINE_ITEMS_PER_QUERY,
  PAGED_COLLECTIONS,
  PAGED_LINE_ITEMS,
  PAGED_VARIANTS,
  VARIANTS_PER_QUERY,
  VARIANT_BARCODES,
} from "./paged-sizes";
export { fetchPrimaryDomain, fetchProduct } from "./queries";
export { tokenMigrationDeps } from "./shop-tokens";
export {
  CUSTOMER_IDENTITY,
  CUSTOMER_ORDER,
  CUSTOMER_ORDERS,
  ORDER_BY_NAME,
  CUSTOMER_ORDER_LINES,
  HISTORY_LINES_PER_ORDER,
  ORDER_LINES_PER_QUERY,
  RATE_CHECK_ORDER,
  RATE_CHECK_ORDER_BY_NAME,
  SHOP_MONEY_FORMAT,
} from "./shopper-documents";
export { migrateTokens, shopsToMigrate } from "./token-migration";
export type { TokenProvider } from "./token-provider";
export { shopTokenStates } from "./token-state";
export type { ShopTokenState } from "./token-state";
export { describeTokenStatus, offlineTokenStatus } from "./token-status";
