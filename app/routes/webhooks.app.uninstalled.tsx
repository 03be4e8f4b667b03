import { webhookAction } from "../.server/web";

// app/uninstalled: verified, deduplicated and queued by the one ingress; processed in workers/.
export const action = webhookAction;
