import { webhookAction } from "../.server/web";

// products/update: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
