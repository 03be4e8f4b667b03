// The shopper's side: the app proxy's pages, review and question writes, order review status, Liquid.
// Other folders import from here only; the rest of the folder is private to it.
export { appDrop, createThemeRenderer, productDrop } from "./liquid";
export type { RawMetafield, ThemeRenderer } from "./liquid";
export { loadTranslations } from "./liquid/translations";
export type { Translations } from "./liquid/translations";
export { readCustomerOrder, readCustomerOrders } from "./order-reviews/customer-orders";
export type { ShopOrder } from "./order-reviews/customer-orders";
export { orderReviewStatusForExtension, thankYouForExtension } from "./order-reviews/extension-review-status.server";
export type { ThankYouAnswer, ExtensionReviewStatusDeps } from "./order-reviews/extension-review-status.server";
export type { StatusItem, StatusOrder } from "./order-reviews/order-review-status-page";
export { orderReviewStatusPageResponse } from "./order-reviews/order-review-status.server";
export type { OrderReviewStatusPageDeps } from "./order-reviews/order-review-status.server";
export { signProxyQuery } from "./proxy/app-proxy-signature";
export type { ProxyIdentity } from "./proxy/app-proxy-signature";
export { failureStatus } from "./proxy/fragment-answers";
export { clientIp, createRateLimiter } from "./proxy/rate-limits";
export type { LimitRule, RateLimiter } from "./proxy/rate-limits";
export { createResponseCache } from "./proxy/response-cache";
export { reviewsPageResponse } from "./proxy/reviews-page.server";
export type { ReviewsPageDeps } from "./proxy/reviews-page.server";
export { resolveLocale } from "./proxy/reviews-query";
export type { StorefrontLocale } from "./proxy/reviews-query";
export {
  ProxySignatureError,
  appProxyCheck,
  plain,
  unauthorized,
  verifyAppProxy,
  whenSigned,
} from "./proxy/verify-proxy.server";
export type { AppProxyAuthenticate } from "./proxy/verify-proxy.server";
export { askQuestionResponse, questionsPageResponse } from "./questions/questions.server";
export type { QuestionsReadDeps } from "./questions/questions.server";
export { createCustomerIdentities } from "./shopper/customer-identity";
export { createReviewedProducts } from "./shopper/reviewed-products";
export { storeReviewsPageResponse } from "./store-reviews/store-reviews.server";
export type { StoreReviewsDeps } from "./store-reviews/store-reviews.server";
export { createReplayGuard } from "./writes/replay-guard";
export { confirmMediaResponse, presignMediaResponse, sendAttributesResponse } from "./writes/review-additions.server";
export { reviewedResponse } from "./writes/reviewed.server";
export { submitReviewResponse } from "./writes/submit-review.server";
export { createUpdateTokens } from "./writes/update-tokens";
export { voteResponse } from "./writes/vote.server";
export type { ReviewWriteDeps } from "./writes/write-request.server";
export { formatMoney } from "./liquid/money";
export { rateCheckResponse } from "./order-reviews/rate-check.server";
export type { RateCheckDeps } from "./order-reviews/rate-check.server";
