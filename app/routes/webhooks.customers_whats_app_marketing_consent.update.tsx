import { webhookAction } from "../.server/web";

// customers_whats_app_marketing_consent/update: verified, deduplicated and queued by the one ingress; processed in
// workers/.
export const action = webhookAction;
