import { createHmac, randomUUID } from "node:crypto";

// Real signed webhook requests, as Shopify sends them: HMAC-SHA256 of the raw body with the app's
// secret, base64, in X-Shopify-Hmac-Sha256, with the delivery headers beside it.

export interface WebhookRequestInput {
  topic: string;
  shop: string;
  payload: unknown;
  secret?: string;
  webhookId?: string;
  eventId?: string;
  url?: string;
  rawBody?: string;
  apiVersion?: string;
  /** X-Shopify-Triggered-At; now when not given. */
  triggeredAt?: string;
}

export function signBody(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

export function signedWebhookRequest(input: WebhookRequestInput): Request {
  const secret = input.secret ?? process.env.SHOPIFY_API_SECRET ?? "test-api-secret";
  const body = input.rawBody ?? JSON.stringify(input.payload);
  return new Request(input.url ?? `https://reviews-app.test/webhooks/${input.topic}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      "x-shopify-topic": input.topic,
      "x-shopify-shop-domain": input.shop,
      "x-shopify-hmac-sha256": signBody(body, secret),
      "x-shopify-webhook-id": input.webhookId ?? randomUUID(),
      "x-shopify-event-id": input.eventId ?? randomUUID(),
      "x-shopify-api-version": input.apiVersion ?? "2026-10",
      "x-shopify-triggered-at": input.triggeredAt ?? new Date().toISOString(),
    },
  });
}

/** What a test may set of one delivery: its ids, its raw body, when Shopify raised its event. */
export type DeliveryOptions = Pick<WebhookRequestInput, "webhookId" | "eventId" | "rawBody" | "triggeredAt">;

type RouteAction = (a: { request: Request; params: object; context: object }) => Promise<Response>;

/** Delivers signed webhooks through the app's real route module of each topic (imported once). */
export function routeDeliverer() {
  const routes = new Map<string, RouteAction>();
  return async (topic: string, shop: string, payload: unknown, opts: DeliveryOptions = {}): Promise<Response> => {
    let action = routes.get(topic);
    if (!action) {
      action = (await import(`../../app/routes/webhooks.${topic.replace("/", ".")}.tsx`)).action as RouteAction;
      routes.set(topic, action);
    }
    return action({
      request: signedWebhookRequest({ topic, shop, payload, ...opts }),
      params: {},
      context: {},
    });
  };
}
