import { webhookAction } from "../.server/web";

// bulk_operations/finish: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
