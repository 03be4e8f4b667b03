// Products to the service: webhooks staged, coalesced and flushed, the mirror of what was sent, full catalog
// syncs.
// Other folders import from here only; the rest of the folder is private to it.
export { catalogPoll, catalogRead, catalogStart } from "./catalog-sync";
export { flushShopCatalog } from "./flush";
export { NEVER_ACCEPTED, createPendingChanges } from "./pending-changes";
export type { PendingChanges } from "./pending-changes";
export { fetchProductForOrder, requestProductFetch } from "./product-fetch";
export { createProductMirror } from "./product-mirror.repository";
export type { ProductMirror } from "./product-mirror.repository";
export { productDeleted, productUpserted } from "./product-webhooks";
export { scheduleCatalogSweep, sweepCatalog } from "./sweep";
