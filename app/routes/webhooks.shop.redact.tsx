import { webhookAction } from "../.server/webhooks";

// shop/redact: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
