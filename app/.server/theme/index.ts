// What the storefront's theme reads: the rating snapshot and the shop data the back-sync keeps in
// metafields, and the path the app proxy is mounted at.
// Other folders import from here only; the rest of the folder is private to it.
export { createProxyPathStore, readProxyPath } from "./proxy-path";
export { SHOP_DATA_KEY, SHOP_DATA_NAMESPACE, SHOP_DATA_VERSION, shopDataSchema } from "./shop-data";
export type { ShopData } from "./shop-data";
export { SNAPSHOT_KEY, SNAPSHOT_NAMESPACE, buildSnapshot, shownReviewerName, toSnapshotReview } from "./snapshot";
export type { Snapshot, SnapshotReview } from "./snapshot";
