// The shops: their records, whether one may sync, its service client, the Admin API address probe.
// Other folders import from here only; the rest of the folder is private to it.
export { addressGatedAdmin, probeAddress, scheduleAddressProbe } from "./address-probe";
export { SYNCABLE_SHOPS, canSyncShop } from "./can-sync";
export { forgetRefusedOfflineSession } from "./forget-refused-session";
export { MERCHANT_RECHECK_MS, merchantWaits, resumeParkedForMerchant } from "./merchant-waits";
export { countReviews } from "./review-count";
export { shopReviewsClients } from "./reviews-for-shop";
export {
  ShopNotConnectedError,
  ShopNotFoundError,
  connectionInputSchema,
  createShopRepository,
} from "./shop.repository";
export type { ShopRepository } from "./shop.repository";
export { syncShop } from "./sync-shop";
export type { SyncShop, SyncShopDeps } from "./sync-shop";
