import { webhookAction } from "../.server/webhooks";

// app/scopes_update: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
