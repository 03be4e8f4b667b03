import { webhookAction } from "../.server/web";

// orders/updated: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
