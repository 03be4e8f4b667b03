import { webhookAction } from "../.server/webhooks/webhook-action.server";

// app/scopes_update: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
