// Shopify's mandatory privacy webhooks: customers' data requests and redactions, shop redaction.
// Other folders import from here only; the rest of the folder is private to it.
export { customersDataRequest, customersRedact, shopRedact } from "./customer-data";
