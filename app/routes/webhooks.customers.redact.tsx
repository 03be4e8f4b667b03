import { webhookAction } from "../.server/webhooks";

// customers/redact: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
