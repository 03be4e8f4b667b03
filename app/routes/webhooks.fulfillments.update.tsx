import { webhookAction } from "../.server/webhooks";

// fulfillments/update: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
