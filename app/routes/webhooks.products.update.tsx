import { webhookAction } from "../.server/webhooks";

// products/update: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
