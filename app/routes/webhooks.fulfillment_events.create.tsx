import { webhookAction } from "../.server/web";

// fulfillment_events/create: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
