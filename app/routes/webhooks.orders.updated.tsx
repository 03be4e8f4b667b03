import { webhookAction } from "../.server/webhooks";

// orders/updated: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
