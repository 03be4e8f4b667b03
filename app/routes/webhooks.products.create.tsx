import { webhookAction } from "../.server/web";

// products/create: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
