// The Google product reviews feed: built from the mirror and the service's reviews, checked, served.
// Other folders import from here only; the rest of the folder is private to it.
export { checkProductReviewFeed } from "./feed-check";
export type { ExclusionReason } from "./feed-entry";
export { googleFeedIndexResponse, googleFeedResponse } from "./feed-response.server";
export type { GoogleFeedDeps } from "./feed-response.server";
export { FEED_SCHEMA_VERSION } from "./feed-schema";
export { readFeedStatus } from "./feed-status";
export type { FeedStatus } from "./feed-status";
export { shopGoogleFeedUrl } from "./feed-url";
export { PRODUCTS_REPORTED } from "./feed-writer";
