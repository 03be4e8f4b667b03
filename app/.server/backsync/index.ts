// The service back to Shopify: reviews, ratings and shop data written as metafields, and the runs' schedule.
// Other folders import from here only; the rest of the folder is private to it.
export { backSyncShop } from "./backsync-job";
export { createBackSyncState } from "./backsync-state.repository";
export { productIdOfGid } from "./rating-metafields";
export { requestBackSync, requestDueBackSyncs, scheduleBackSync } from "./schedule";
