import "@shopify/shopify-api/adapters/web-api";
import { shopifyApi, WebhookValidationErrorReason } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { signedWebhookRequest } from "../../../test/helpers/webhooks";
import { SHOPIFY_API_VERSION } from "../shopify/api-version";
import { createWebhookVerifier } from "./verify.server";

// The ingress checks signatures itself (faster); Shopify's library stays the judge of what a valid
// delivery is: every case below gets the same answer from both.

const SECRET = "agreement-secret";
const library = shopifyApi({
  apiKey: "key",
  apiSecretKey: SECRET,
  apiVersion: SHOPIFY_API_VERSION as never,
  hostName: "reviews-app.test",
  isEmbeddedApp: true,
  logger: { level: 0, log: () => undefined },
});
const ours = createWebhookVerifier({ apiSecretKey: SECRET });

/** The library's verdict as the HTTP answer the ingress gives for it. */
async function libraryStatus(request: Request): Promise<number> {
  if (request.method !== "POST") return 405;
  const check = await library.webhooks.validate({ rawBody: await request.text(), rawRequest: request });
  if (check.valid) return 200;
  return check.reason === WebhookValidationErrorReason.InvalidHmac ? 401 : 400;
}

async function ourStatus(request: Request): Promise<number> {
  try {
    await ours(request);
    return 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

const payload = { id: 632910392, title: "IPod Nano - 8GB", updated_at: "2026-11-20T10:00:00-05:00" };
const signed = (over: Partial<Parameters<typeof signedWebhookRequest>[0]> = {}) =>
  signedWebhookRequest({ topic: "products/update", shop: "agree.myshopify.com", payload, secret: SECRET, ...over });

function withHeaders(request: Request, change: (h: Headers) => void, body?: string): Request {
  const headers = new Headers(request.headers);
  change(headers);
  return new Request(request.url, { method: "POST", headers, body: body ?? JSON.stringify(payload) });
}

const cases: Record<string, () => Request> = {
  "a delivery signed with the app's secret": () => signed(),
  "a body changed after signing": () => withHeaders(signed(), () => undefined, JSON.stringify({ ...payload, id: 1 })),
  "a delivery signed with another secret": () => signed({ secret: "someone-else" }),
  "a signature that is not base64 of 32 bytes": () =>
    withHeaders(signed(), (h) => h.set("x-shopify-hmac-sha256", "abc")),
  "a signature with a stray character": () =>
    withHeaders(signed(), (h) => h.set("x-shopify-hmac-sha256", `${h.get("x-shopify-hmac-sha256")}!`)),
  "an empty body": () => signed({ rawBody: "" }),
  "no topic header": () => withHeaders(signed(), (h) => h.delete("x-shopify-topic")),
  "no shop domain header": () => withHeaders(signed(), (h) => h.delete("x-shopify-shop-domain")),
  "no API version header": () => withHeaders(signed(), (h) => h.delete("x-shopify-api-version")),
  "no webhook id header": () => withHeaders(signed(), (h) => h.delete("x-shopify-webhook-id")),
  "no signature header": () => withHeaders(signed(), (h) => h.delete("x-shopify-hmac-sha256")),
  "a GET": () => new Request("https://reviews-app.test/webhooks/products/update", { method: "GET" }),
};

describe("webhook signature check", () => {
  it.each(Object.keys(cases))("GIVEN %s THEN it answers as Shopify's library would", async (name) => {
    const expected = await libraryStatus(cases[name]!());
    expect(await ourStatus(cases[name]!())).toBe(expected);
  });

  it("GIVEN a valid delivery THEN the shop, topic, ids and parsed payload come from it", async () => {
    const verified = await ours(signed({ webhookId: "wh-agree-1" }));
    expect(verified).toEqual({
      shop: "agree.myshopify.com",
      topic: "PRODUCTS_UPDATE",
      webhookId: "wh-agree-1",
      apiVersion: expect.any(String),
      payload,
    });
  });

  it("GIVEN a signed body that is not JSON THEN a SyntaxError, for the ingress to record", async () => {
    await expect(ours(signed({ rawBody: "{not json" }))).rejects.toBeInstanceOf(SyntaxError);
  });
});
