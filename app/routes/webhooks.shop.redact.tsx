import { webhookAction } from "../.server/web";

// shop/redact: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
