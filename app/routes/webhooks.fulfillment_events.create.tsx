import { webhookAction } from "../.server/webhooks";

// fulfillment_events/create: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
