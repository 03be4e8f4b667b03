import { webhookAction } from "../.server/web";

// fulfillments/update: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
