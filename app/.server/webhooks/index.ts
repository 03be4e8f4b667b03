// The webhook ingress: HMAC, deduplication, and the delivery's job.
// Other folders import from here only; the rest of the folder is private to it.
export { receiveWebhook } from "./ingress.server";
export { MAX_WEBHOOK_BYTES } from "./limits";
export { bodySignedBy, createWebhookVerifier } from "./verify.server";
