import { topicAdapter } from "../outcome-adapter";
import {
  customersDataRequest as answerDataRequest,
  customersRedact as redactCustomer,
  shopRedact as redactShop,
} from "../../app/.server/compliance";

// Shopify's mandatory compliance topics (app/.server/compliance/customer-data.ts). A payload that
// cannot be read is recorded failed, not retried.
export const customersDataRequest = topicAdapter(answerDataRequest);
export const customersRedact = topicAdapter(redactCustomer);
export const shopRedact = topicAdapter(redactShop);
