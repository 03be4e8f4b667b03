// The customers' marketing consent as Shopify reports it: read, parsed from webhooks, stored.
// Other folders import from here only; the rest of the folder is private to it.
export { readCustomerConsent } from "./consent-read";
export { parseConsentWebhook } from "./consent-webhooks";
export type { ConsentTopic } from "./consent-webhooks";
export { createConsentRepository, statesOf } from "./consent.repository";
export type { ConsentReport, CustomerConsentRecord } from "./consent.repository";
