// The web process's wiring: what each family of routes is given (the app proxy's pages and writes,
// the order review status, the Google feed, the webhooks, Flow's callback), built on
// context.server.ts. The workers never load it.
// Other folders import from here only; the rest of the folder is private to it.
export { googleFeedDeps } from "./feed-deps.server";
export { extensionReviewStatusDeps, orderReviewStatusDeps } from "./order-review-status-deps.server";
export type { ExtensionChecks } from "./order-review-status-deps.server";
export { EXTENSION_DIR, proxyDeps } from "./proxy-deps.server";
export { webhookAction } from "./webhook-action.server";
export { reviewWriteDeps } from "./write-deps.server";
export { answerLifecycleCallback } from "./lifecycle-callback";
export { SealedSessionStorage } from "./sealed-session-storage";
export { answerCustomerReviews } from "./customer-reviews-route.server";
export type { CustomerReviewsError } from "./customer-reviews-route.server";
