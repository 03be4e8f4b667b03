import { webhookAction } from "../.server/web";

// customers_email_marketing_consent/update: verified, deduplicated and queued by the one ingress; processed in
// workers/.
export const action = webhookAction;
