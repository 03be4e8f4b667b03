import "@shopify/shopify-api/adapters/web-api";
import { shopifyApi, WebhookValidationErrorReason } from "@shopify/shopify-api";
import { SHOPIFY_API_VERSION } from "../shopify/api-version";
import type { VerifiedWebhook } from "./ingress.server";

// The library's HMAC validation of a webhook, without the rest of `authenticate.webhook`: that one
// also loads (and may refresh) the shop's offline session on every delivery, a database read the
// ingress does not need — the workers look the shop up themselves. Same checks, same answers:
// 405 for a non-POST, 401 for a bad signature, 400 for missing headers or body.

type Validator = ReturnType<typeof shopifyApi>["webhooks"]["validate"];

export function createWebhookVerifier(options: { apiKey: string; apiSecretKey: string; appUrl: string }) {
  const api = shopifyApi({
    apiKey: options.apiKey,
    apiSecretKey: options.apiSecretKey,
    apiVersion: SHOPIFY_API_VERSION as never,
    hostName: new URL(options.appUrl).host,
    isEmbeddedApp: true,
    // Webhook validation never logs the body; keep the library's own logger quiet.
    logger: { level: 0, log: () => undefined },
  });
  const validate: Validator = api.webhooks.validate.bind(api.webhooks);

  return async function verify(request: Request): Promise<VerifiedWebhook> {
    if (request.method !== "POST") throw new Response(null, { status: 405 });
    const rawBody = await request.text();
    const check = await validate({ rawBody, rawRequest: request });
    if (!check.valid) {
      throw new Response(null, { status: check.reason === WebhookValidationErrorReason.InvalidHmac ? 401 : 400 });
    }
    if (!("webhookId" in check)) throw new Response(null, { status: 400 });
    // A SyntaxError here is a signed but unreadable body: the ingress records it.
    return {
      shop: check.domain,
      topic: check.topic,
      webhookId: check.webhookId,
      apiVersion: check.apiVersion,
      payload: JSON.parse(rawBody),
    };
  };
}
