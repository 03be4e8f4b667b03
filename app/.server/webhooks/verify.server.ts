import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import type { VerifiedWebhook } from "./ingress.server";

// A webhook's signature check, as Shopify documents it: HMAC-SHA256 of the raw body with the app's
// secret, base64, in X-Shopify-Hmac-Sha256; then the delivery headers every webhook carries. The
// same checks and answers as the library's `webhooks.validate` (405 for a non-POST, 400 for an
// empty body or a missing header, 401 for a bad signature; verify.test.ts holds the two side by
// side), done here with one synchronous HMAC: the library's version canonicalised every header
// name and went through WebCrypto's job queue, together a fifth of the web process's CPU at 1,000
// deliveries/s (profiled). Without `authenticate.webhook` too: that one loads (and may refresh)
// the shop's offline session on every delivery, a read the ingress does not need.

const REQUIRED = ["x-shopify-topic", "x-shopify-shop-domain", "x-shopify-api-version", "x-shopify-webhook-id"] as const;

export function createWebhookVerifier(options: { apiSecretKey: string }) {
  // One key object for the process: made from a string on every call, it showed in the profile.
  const secret = createSecretKey(Buffer.from(options.apiSecretKey, "utf8"));

  return async function verify(request: Request): Promise<VerifiedWebhook> {
    if (request.method !== "POST") throw new Response(null, { status: 405 });
    const raw = Buffer.from(await request.arrayBuffer());
    if (!raw.length) throw new Response(null, { status: 400 });
    const given = request.headers.get("x-shopify-hmac-sha256");
    if (!given) throw new Response(null, { status: 400 });
    if (!signedBy(secret, raw, given)) throw new Response(null, { status: 401 });
    const [topic, shop, apiVersion, webhookId] = REQUIRED.map((name) => request.headers.get(name));
    if (!topic || !shop || !apiVersion || !webhookId) throw new Response(null, { status: 400 });
    return {
      shop,
      // The library's form of a topic ("PRODUCTS_UPDATE"); the ingress takes the header's own.
      topic: topic.toUpperCase().replace(/[/.]/g, "_"),
      webhookId,
      apiVersion,
      // A SyntaxError here is a signed but unreadable body: the ingress records it.
      payload: JSON.parse(raw.toString("utf8")),
    };
  };
}

/**
 * Whether `given` (an X-Shopify-Hmac-Sha256 header) signs `body` with the app's secret: webhooks,
 * and Flow's lifecycle callback, which Shopify signs the same way.
 */
export function bodySignedBy(secret: KeyObject, body: Buffer, given: string): boolean {
  return signedBy(secret, body, given);
}

/** Compares digests, not strings: a wrong signature of any length costs the same time. */
function signedBy(secret: KeyObject, body: Buffer, given: string): boolean {
  const expected = createHmac("sha256", secret).update(body).digest();
  const received = Buffer.from(given, "base64");
  // base64 that does not round-trip (stray characters, wrong padding) is not Shopify's.
  if (received.toString("base64") !== given) return false;
  return received.length === expected.length && timingSafeEqual(received, expected);
}
