// The customer account page's reviews: which reviews are the customer's, and the page; what a
// customer bought, remembered a few minutes for their reviews through the proxy.
// Other folders import from here only; the rest of the folder is private to it.
export { createCustomerReviewIndex } from "./customer-review.repository";
export { customerReviewsPage } from "./customer-reviews-page";
export type { CustomerReviewItem, CustomerReviewsAnswer } from "./customer-reviews-page";
export { indexCustomerReviews } from "./index-customer-reviews";
export { customerOfReview } from "./review-customer";
export { ANY_PRODUCT, createPurchaseMemory, PURCHASES_KEEP_MS } from "./purchases";
export type { PurchaseMemory, RememberedPurchase } from "./purchases";
