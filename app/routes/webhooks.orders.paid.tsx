import { webhookAction } from "../.server/web";

// orders/paid: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
