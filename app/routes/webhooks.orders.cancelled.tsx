import { webhookAction } from "../.server/web";

// orders/cancelled: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
