import { webhookAction } from "../.server/webhooks/webhook-action.server";

// bulk_operations/finish: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
