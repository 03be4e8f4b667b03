import { webhookAction } from "../.server/web";

// app/scopes_update: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
