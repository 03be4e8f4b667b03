import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { ReviewsError, ReviewsPermanentError, type ReviewSubmission, type ReviewsStorefrontApi } from "../../reviews";
import type { AdminGraphql } from "../../shopify/admin-graphql";
import type { ShopSettings } from "../../shops/settings";
import { ShopNotConnectedError, ShopNotFoundError } from "../../shops/shop.repository";
import { cacheControl } from "../proxy/cache-control";
import { clientIp, type LimitRule, type RateLimiter } from "../proxy/rate-limits";
import { ProxySignatureError, unauthorized, verifyAppProxy, type AppProxyAuthenticate } from "../proxy/verify-proxy.server";
import type { CustomerIdentity } from "../shopper/customer-identity";
import { attributesFor, type AttributeQuestion } from "./available-attributes";
import type { ReplayGuard } from "./replay-guard";
import { mediaRules } from "./media-rules";
import type { PendingPayload } from "./pending-reviews";
import { parseReviewInput } from "./review-input";
import { newGuestHandle, type ReviewOwner, type UpdateTokens } from "./update-tokens";
import { identifyWriter, serviceUser } from "./writer-identity";

// `POST <proxy>/products/<sku>/reviews`: a shopper's review. Order of checks: signature (401) →
// JSON within the size limit (415/413) → not seen before (409) → shopper limits (429) → input
// (422) → who writes: the signed customer, a verified order, or a guest when the merchant allows
// it (403 otherwise) → the service. When the service fails after the shopper pressed send, the
// review is kept and a worker sends it (202 "received"): a shopper's review is never lost.
// Answers are JSON with codes the form translates, and never cached by anyone.

export interface ReviewWriteDeps {
  authenticate: AppProxyAuthenticate;
  replay: ReplayGuard;
  limits: RateLimiter;
  log: Logger;
  reviewsFor(shop: string): Promise<Pick<ReviewsStorefrontApi, "submitReview" | "findOrder" | "getSummary" | "sendAttributes" | "likeReview" | "dislikeReview" | "presignPictures" | "confirmPictures" | "presignVideo" | "confirmVideo" | "askQuestion" | "getOrderReviewStatus">>;
  customerIdentity(shop: string, customerId: string): Promise<CustomerIdentity>;
  adminFor(shop: string): Promise<AdminGraphql>;
  settingsOf(shop: string): Promise<ShopSettings>;
  updateTokens: UpdateTokens;
  keepPending(value: { shop: string; sku: string; submission: PendingPayload; outcomeUnknown: boolean; error: string }): Promise<string>;
  redis: Redis;
  settings: { ipLimit: LimitRule; customerLimit: LimitRule; shopLimit: LimitRule; voteLimit: LimitRule; bodyMaxBytes: number; redisPrefix: string };
}

const SKU = /^[A-Za-z0-9_.:-]{1,100}$/;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": cacheControl({ dependsOnCustomer: true, maxAgeMs: 0 }), ...headers },
  });

/** The body's text when it is declared JSON and within `max` bytes; a Response to answer otherwise. */
export async function readBody(request: Request, max: number): Promise<string> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) throw json(415, { error: "json_required" });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) throw json(413, { error: "too_large" });
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
    if (done || !value) break;
    size += value.byteLength;
    if (size > max) {
      await reader?.cancel();
      throw json(413, { error: "too_large" });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** What the service's failure means for the shopper's review: keep it and retry, or say why not. */
export function retryable(error: unknown): { keep: boolean; outcomeUnknown: boolean } {
  if (!(error instanceof ReviewsError)) return { keep: false, outcomeUnknown: false };
  if (error.kind === "rate_limited") return { keep: true, outcomeUnknown: false };
  if (error.kind === "retryable") {
    // A timeout, a connection lost or a 5xx: the service may have stored the review all the same,
    // so the worker looks for it before sending it again.
    return { keep: true, outcomeUnknown: true };
  }
  if (error.kind === "auth") return { keep: true, outcomeUnknown: false };
  return { keep: false, outcomeUnknown: false };
}

export async function submitReviewResponse(request: Request, sku: string, deps: ReviewWriteDeps): Promise<Response> {
  let shop: string;
  let customerId: string;
  try {
    ({ shop, loggedInCustomerId: customerId } = await verifyAppProxy(request, deps.authenticate));
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  if (!SKU.test(sku)) return json(400, { error: "bad_product" });
  let raw: string;
  try {
    raw = await readBody(request, deps.settings.bodyMaxBytes);
  } catch (answer) {
    if (answer instanceof Response) return answer;
    throw answer;
  }
  if (!(await deps.replay.firstUse(request, raw))) return json(409, { error: "replayed" });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return json(400, { error: "not_json" });
  }
  const limited = await firstLimited(deps, [
    ["write-ip", clientIp(request), deps.settings.ipLimit],
    ...(customerId ? [["write-customer", `${shop}:${customerId}`, deps.settings.customerLimit] as const] : []),
    ["write-shop", shop, deps.settings.shopLimit],
  ]);
  if (limited) return json(429, { error: "busy" }, { "Retry-After": String(limited) });

  const parsed = parseReviewInput(body);
  if (!parsed.ok) return json(422, { errors: parsed.errors });
  const { input } = parsed;
  // A filled honeypot gets the answer a person would get, and nothing is sent.
  if (input.trap) {
    deps.log.info({ shop, sku }, "app proxy: review refused by the honeypot");
    return json(202, { status: "received" });
  }

  let client: Awaited<ReturnType<ReviewWriteDeps["reviewsFor"]>>;
  try {
    client = await deps.reviewsFor(shop);
  } catch (error) {
    return unidentified(deps, shop, error);
  }
  const writer = await identifyWriter(deps, { shop, sku, customerId, client: async () => client, answer: json }, input);
  if (writer instanceof Response) return writer;
  const base = { rating: input.rating, ...(input.text ? { text: input.text } : {}), ...(input.recommended !== undefined ? { recommended: input.recommended } : {}), source: "web" };
  // A verified order sends its token instead of a user: the service marks the review verified.
  const submission: ReviewSubmission =
    writer.kind === "order" || writer.kind === "link" ? { ...base, verificationTokenId: writer.verificationTokenId, orderId: writer.orderId } : { ...base, ...serviceUser(writer) };
  const guestHandle = writer.kind === "customer" ? undefined : newGuestHandle();
  const owner: ReviewOwner = guestHandle ? { guestHandle } : { customerId };

  // The product's categories (which attributes apply) are asked at the same time as the review is
  // sent, so the shopper waits for one call to the service, not two.
  const categories = client
    .getSummary(sku, { pageSize: 1 })
    .then((s) => ((s.product as { categories?: unknown } | null | undefined)?.categories as string[] | undefined) ?? [])
    .catch(() => [] as string[]);
  try {
    const review = await client.submitReview(sku, submission);
    let attributes: AttributeQuestion[] = [];
    if (review.updateToken) {
      attributes = attributesFor(review.availableAttributes, await categories);
      await deps.updateTokens.keep(shop, review._id, { updateToken: review.updateToken, sku, owner, attributes });
    }
    return json(201, {
      status: "sent",
      review: { id: review._id, attributes },
      ...(review.updateToken ? { media: mediaRules((await deps.settingsOf(shop)).storefront) } : {}),
      ...(guestHandle ? { write: guestHandle } : {}),
    });
  } catch (error) {
    const how = retryable(error);
    if (!how.keep) {
      const reason = error instanceof ReviewsPermanentError ? error.reason : "error";
      deps.log.warn({ shop, sku, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message }, "app proxy: review refused by the service");
      return json(422, { error: "refused", reason });
    }
    try {
      await deps.keepPending({ shop, sku, submission, outcomeUnknown: how.outcomeUnknown, error: error instanceof ReviewsError ? `${error.kind}` : "error" });
    } catch (keepError) {
      deps.log.error({ shop, sku, err: (keepError as Error).message }, "app proxy: review could not be kept for a retry");
      return json(503, { error: "unavailable" }, { "Retry-After": "30" });
    }
    deps.log.info({ shop, sku, err: error instanceof ReviewsError ? error.kind : "error" }, "app proxy: review kept for a retry");
    return json(202, { status: "received" });
  }
}

function unidentified(deps: ReviewWriteDeps, shop: string, error: unknown): Response {
  if (error instanceof ShopNotConnectedError || error instanceof ShopNotFoundError) return json(503, { error: "unavailable" });
  deps.log.warn({ shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message }, "app proxy: service client not made");
  return json(503, { error: "unavailable" }, { "Retry-After": "30" });
}

export async function firstLimited(deps: Pick<ReviewWriteDeps, "limits">, rules: (readonly [string, string, LimitRule])[]): Promise<number | null> {
  for (const [scope, subject, rule] of rules) {
    const r = await deps.limits.hit(scope, subject, rule);
    if (!r.ok) return r.retryAfterSeconds;
  }
  return null;
}
