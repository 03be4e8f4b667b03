import { topicAdapter } from "../outcome-adapter";
import {
  fulfillmentChanged as recordFulfillmentChange,
  fulfillmentEventCreated as recordFulfillmentEvent,
  orderChanged as applyOrderWebhook,
} from "../../app/.server/orders";

// The order and fulfillment topics (app/.server/orders/order-webhooks.ts). The service's 429 puts
// the delivery back for its Retry-After; a payload or order the service refuses is recorded failed.

/** orders/create, updated, paid, cancelled, fulfilled, partially_fulfilled. */
export const orderChanged = topicAdapter(applyOrderWebhook);
/** fulfillments/create and fulfillments/update. */
export const fulfillmentChanged = topicAdapter(recordFulfillmentChange);
/** fulfillment_events/create. */
export const fulfillmentEventCreated = topicAdapter(recordFulfillmentEvent);
