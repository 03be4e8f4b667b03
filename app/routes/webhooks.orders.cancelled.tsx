import { webhookAction } from "../.server/webhooks";

// orders/cancelled: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
