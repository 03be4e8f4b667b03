// Orders to the service: webhooks applied under the order's lock, status updates, timers, consent, full orders
// syncs.
// Other folders import from here only; the rest of the folder is private to it.
export { consentUpdated } from "./consent-changed";
export { readConsentLater } from "./order-consent";
export { createOrderStateRepository } from "./order-state.repository";
export { fulfillmentChanged, fulfillmentEventCreated, orderChanged } from "./order-webhooks";
export { ordersPoll, ordersRead, ordersStart } from "./orders-sync";
export { announceTracking, deliverIfDue } from "./timed-updates";
