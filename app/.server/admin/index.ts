// What the embedded admin's loaders and actions call: one module per page or form.
// Other folders import from here only; the rest of the folder is private to it.
export { channelsPage } from "./channels-page";
export { saveCredentials } from "./credentials";
export type { CredentialsResult } from "./credentials";
export { shopifyDocumentHeaders } from "./document-headers";
export { keyFigures } from "./key-figures";
export type { KeyFigures } from "./key-figures";
export { questionsPage, surveysPage } from "./lists";
export { appBridgeUrl, dropCdnPreload, localBridgeEnabled, localBridgeScript } from "./local-bridge";
export { moderateReviews, reviewsPage } from "./moderation";
export type { ReviewRow } from "./moderation";
export { confirmStep, dismissOnboarding, onboardingState } from "./onboarding";
export type { OnboardingState } from "./onboarding";
export { editGroup, groupsPage } from "./product-groups";
export type { GroupProduct, GroupResult, GroupRow } from "./product-groups";
export { reportCsv, reportPage } from "./product-report";
export { reviewsFor } from "./reviews-client";
export { serviceErrorMessage } from "./service-errors";
export { hostParam, mintSessionToken } from "./session-token";
export { saveSettingsForm, settingsFormState } from "./settings-form";
export type { SettingsSaveResult } from "./settings-form";
export { shopProducts } from "./shop-products";
export type { ShopProduct } from "./shop-products";
export { retryRefusedProducts, syncEverything, syncOverview } from "./sync-overview";
export { buyerReviews } from "./moderation";
