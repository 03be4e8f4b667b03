import { createHmac } from "node:crypto";

// Shopify Flow's trigger lifecycle callback, as Flow posts it when a merchant turns on or off a
// workflow that starts with one of the app's triggers: JSON body, base64 HMAC-SHA256 of the raw
// body with the app's client secret in X-Shopify-Hmac-Sha256. Flow keeps the workflow off unless
// the app answers 2xx, so the answer's status is returned for the caller to act on.

export interface FlowLifecycleCall {
  /** The app's lifecycle callback URL (the extension's `url`, resolved against the app's URL). */
  url: string;
  apiSecret: string;
  shop: string;
  /** What Flow names the trigger by (the trigger extension's handle here). */
  trigger: string;
  enabled: boolean;
  /** Flow's time for the change; newer callbacks take precedence. */
  at?: Date;
  shopId?: number;
  fetch?: typeof globalThis.fetch;
}

export async function sendFlowLifecycle(call: FlowLifecycleCall): Promise<{ status: number; accepted: boolean }> {
  const body = JSON.stringify({
    flow_trigger_definition_id: call.trigger,
    has_enabled_flow: call.enabled,
    shop_id: call.shopId ?? 690933842,
    shopify_domain: call.shop,
    timestamp: (call.at ?? new Date()).toISOString(),
  });
  const res = await (call.fetch ?? globalThis.fetch)(call.url, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Hmac-Sha256": createHmac("sha256", call.apiSecret).update(body, "utf8").digest("base64"),
    },
  });
  await res.arrayBuffer();
  return { status: res.status, accepted: res.status >= 200 && res.status < 300 };
}
