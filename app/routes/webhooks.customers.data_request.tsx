import { webhookAction } from "../.server/web";

// customers/data_request: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
