import type { Logger } from "pino";
import type { Queues } from "../queues";
import { UNREADABLE_PAYLOAD, enqueueWebhook, type WebhookJob } from "../jobs";
import { observeWebhook } from "../metrics";
import { MAX_WEBHOOK_BYTES } from "./limits";

// The one ingress of every webhook topic: verify (the HMAC of the raw body, verify.server.ts),
// store the delivery as a job in Redis, answer. Nothing else happens here: the sync work is done
// by the workers, so Shopify gets its answer in milliseconds.
//
// Deduplication is atomic inside BullMQ's add: the job id and a dedupe key are the webhook id, kept
// for WEBHOOK_DEDUPE_TTL_MS, so a repeated delivery adds nothing. The event id travels with the job
// and is recorded with the delivery by the worker.

export interface VerifiedWebhook {
  shop: string;
  topic: string;
  webhookId: string;
  apiVersion?: string;
  payload: unknown;
}

export interface IngressDeps {
  /** The webhook's signature check (verify.server.ts): throws a Response (401, 400, 405) when it refuses. */
  verify(request: Request): Promise<VerifiedWebhook>;
  queues: Queues;
  log: Logger;
  maxBytes?: number;
}

export async function receiveWebhook(request: Request, deps: IngressDeps): Promise<Response> {
  const started = performance.now();
  // The topic from the route's path (only matched routes get here), not from a header anyone can set.
  const topic = new URL(request.url).pathname.replace(/^\/webhooks\//, "");
  let status = 500;
  try {
    const response = await receive(request, deps, started);
    status = response.status;
    return response;
  } finally {
    observeWebhook(topic, status, (performance.now() - started) / 1000);
  }
}

async function receive(request: Request, deps: IngressDeps, started: number): Promise<Response> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > (deps.maxBytes ?? MAX_WEBHOOK_BYTES)) {
    deps.log.warn({ length, topic: request.headers.get("x-shopify-topic") }, "webhook body over the limit");
    return new Response(null, { status: 413 });
  }

  // The verifier answers 400 to a missing signature, as the library does; unsigned is unauthenticated: 401.
  if (!request.headers.get("x-shopify-hmac-sha256")) return new Response(null, { status: 401 });

  let job: WebhookJob;
  try {
    const verified = await deps.verify(request);
    job = jobFrom(request.headers, verified.payload, verified);
  } catch (error) {
    if (error instanceof Response) return error;
    // The verifier parses JSON only after the signature matched: a SyntaxError here is a signed but
    // unreadable delivery. Record it for the operator and accept it; a retry would not mend it.
    if (error instanceof SyntaxError) job = jobFrom(request.headers, UNREADABLE_PAYLOAD);
    else throw error;
  }

  try {
    await deps.queues.ready(1000);
    await enqueueWebhook(deps.queues, job);
  } catch (error) {
    // Not stored, so not acknowledged: Shopify will deliver it again.
    deps.log.error({ err: (error as Error).message, topic: job.topic, shop: job.shop }, "webhook not stored");
    return new Response(null, { status: 503, headers: { "Retry-After": "5" } });
  }
  deps.log.debug({ topic: job.topic, shop: job.shop, ms: Math.round(performance.now() - started) }, "webhook stored");
  return new Response(null, { status: 200 });
}

function jobFrom(headers: Headers, payload: unknown, verified?: VerifiedWebhook): WebhookJob {
  const h = (name: string) => headers.get(name);
  return {
    deliveryId: verified?.webhookId || h("x-shopify-webhook-id") || `unknown-${Date.now()}`,
    eventId: h("x-shopify-event-id"),
    topic: (h("x-shopify-topic") ?? verified?.topic ?? "unknown").toLowerCase(),
    shop: verified?.shop ?? h("x-shopify-shop-domain") ?? "unknown",
    apiVersion: verified?.apiVersion ?? h("x-shopify-api-version"),
    triggeredAt: h("x-shopify-triggered-at"),
    receivedAt: new Date().toISOString(),
    payload,
  };
}
