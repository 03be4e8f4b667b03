import { webhookAction } from "../.server/webhooks";

// orders/partially_fulfilled: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
