// The Shop app's product reviews syndication.
// Other folders import from here only; the rest of the folder is private to it.
export { orderLinksFromMirror } from "./order-links";
export { PRODUCT_REVIEW_TYPE } from "./product-review.mapper";
export { shopAppStatus } from "./status";
export type { ShopAppStatus } from "./status";
export { syndicateReviews } from "./syndicate";
export type { SyndicationResult } from "./syndicate";
