import { webhookAction } from "../.server/web";

// orders/fulfilled: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
