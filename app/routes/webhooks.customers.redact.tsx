import { webhookAction } from "../.server/web";

// customers/redact: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
