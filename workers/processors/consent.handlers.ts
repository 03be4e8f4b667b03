import { topicAdapter } from "../outcome-adapter";
import { consentUpdated as recordConsentChange } from "../../app/.server/orders";

// The three marketing-consent topics: the change kept, the customer's orders corrected upstream
// (app/.server/orders/consent-changed.ts).
export const consentUpdated = topicAdapter(recordConsentChange);
