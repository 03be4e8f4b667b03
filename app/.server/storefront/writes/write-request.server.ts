import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { PurchaseMemory } from "../../customers";
import { ReviewsError, type ReviewsStorefrontApi } from "../../reviews";
import type { AdminGraphql } from "../../shopify";
import type { ShopSettings } from "../../settings";
import { ShopNotConnectedError, ShopNotFoundError } from "../../shops";
import { cacheControl } from "../proxy/cache-control";
import { clientIp, type LimitRule, type RateLimiter } from "../proxy/rate-limits";
import {
  ProxySignatureError,
  unauthorized,
  verifyAppProxy,
  type AppProxyAuthenticate,
} from "../proxy/verify-proxy.server";
import type { CustomerIdentity } from "../shopper/customer-identity";
import type { ReviewedProducts } from "../shopper/reviewed-products";
import type { PendingPayload } from "../../pending-reviews";
import type { ReplayGuard } from "./replay-guard";
import type { UpdateTokens } from "./update-tokens";

// What every shopper write through the app proxy (a review, its additions, a vote, a question)
// shares: its dependencies, JSON answers that no one caches, and the steps before the write's own
// input — signature (401) → the path's keys (400) → JSON within a size (415/413) → not seen before
// (409) — then the shopper's write budgets (429), the service's client, and what a failing service
// means for a submission (kept for the worker, or refused).

export interface ReviewWriteDeps {
  authenticate: AppProxyAuthenticate;
  replay: ReplayGuard;
  limits: RateLimiter;
  log: Logger;
  reviewsFor(
    shop: string,
  ): Promise<
    Pick<
      ReviewsStorefrontApi,
      | "submitReview"
      | "findOrder"
      | "getSummary"
      | "sendAttributes"
      | "likeReview"
      | "dislikeReview"
      | "presignPictures"
      | "confirmPictures"
      | "presignVideo"
      | "confirmVideo"
      | "askQuestion"
      | "getOrderReviewStatus"
      | "findOrdersBatch"
    >
  >;
  customerIdentity(shop: string, customerId: string): Promise<CustomerIdentity>;
  adminFor(shop: string): Promise<AdminGraphql>;
  settingsOf(shop: string): Promise<ShopSettings>;
  updateTokens: UpdateTokens;
  /** Products each logged-in customer has reviewed (one review per product per buyer). */
  reviewed: ReviewedProducts;
  /** What each logged-in customer bought, remembered a few minutes (a purchase proved in one read). */
  purchases: PurchaseMemory;
  keepPending(value: {
    shop: string;
    sku: string;
    submission: PendingPayload;
    outcomeUnknown: boolean;
    error: string;
  }): Promise<string>;
  redis: Redis;
  /** A shopper wrote (a review, a question): the shop's back-sync polls at the active pace for a while. */
  noteActivity(shop: string): Promise<void>;
  settings: {
    ipLimit: LimitRule;
    customerLimit: LimitRule;
    shopLimit: LimitRule;
    voteLimit: LimitRule;
    bodyMaxBytes: number;
    redisPrefix: string;
  };
}

export type ServiceClient = Awaited<ReturnType<ReviewWriteDeps["reviewsFor"]>>;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": cacheControl({ dependsOnCustomer: true, maxAgeMs: 0 }),
      ...headers,
    },
  });

/**
 * How much of a body over the limit is still read (and dropped) so the 413 goes out on a connection
 * that can carry the shopper's next request. Cancelling the body instead destroys the socket, and
 * the browser sees a reset rather than the answer. Past this, the 413 closes the connection.
 */
export const DRAIN_MAX_BYTES = 1_048_576;

const tooLarge = (headers: Record<string, string> = {}) => json(413, { error: "too_large" }, headers);

/** The body's text when it is declared JSON and within `max` bytes; a Response to answer otherwise. */
export async function readBody(request: Request, max: number): Promise<string> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
    throw json(415, { error: "json_required" });
  const declared = Number(request.headers.get("content-length") ?? "0");
  const reader = request.body?.getReader();
  if (declared > max) throw await drained(reader, 0, declared > max + DRAIN_MAX_BYTES);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
    if (done || !value) break;
    size += value.byteLength;
    if (size > max) throw await drained(reader, size, false);
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The 413, after reading the rest of the body into nothing, as far as DRAIN_MAX_BYTES. */
async function drained(
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
  alreadyRead: number,
  hopeless: boolean,
): Promise<Response> {
  if (!reader) return tooLarge();
  if (!hopeless) {
    for (let read = alreadyRead; read <= DRAIN_MAX_BYTES;) {
      const { done, value } = await reader.read();
      if (done) return tooLarge();
      read += value?.byteLength ?? 0;
    }
  }
  // Too much to read: answer, and let the server close the connection after the answer (not
  // before it, as cancelling the body would).
  reader.releaseLock();
  return tooLarge({ Connection: "close" });
}

export interface SignedWrite {
  shop: string;
  /** The signed `logged_in_customer_id`; empty for a guest. */
  customerId: string;
  body: unknown;
}

/** The steps every write takes before its own input: a Response when one of them refuses. */
export async function readSignedWrite(
  request: Request,
  deps: Pick<ReviewWriteDeps, "authenticate" | "replay">,
  opts: { pathOk: boolean; badPath: string; maxBytes: number },
): Promise<SignedWrite | Response> {
  let shop: string;
  let customerId: string;
  try {
    ({ shop, loggedInCustomerId: customerId } = await verifyAppProxy(request, deps.authenticate));
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  if (!opts.pathOk) return json(400, { error: opts.badPath });
  let raw: string;
  try {
    raw = await readBody(request, opts.maxBytes);
  } catch (answer) {
    if (answer instanceof Response) return answer;
    throw answer;
  }
  if (!(await deps.replay.firstUse(request, raw))) return json(409, { error: "replayed" });
  try {
    return { shop, customerId, body: JSON.parse(raw) as unknown };
  } catch {
    return json(400, { error: "not_json" });
  }
}

/** A shopper's submissions of any kind share these budgets: per address, per customer, per shop. */
export async function submissionLimited(
  request: Request,
  deps: Pick<ReviewWriteDeps, "limits" | "settings">,
  write: SignedWrite,
): Promise<Response | null> {
  const rules: (readonly [string, string, LimitRule])[] = [
    ["write-ip", clientIp(request), deps.settings.ipLimit],
    ...(write.customerId
      ? [["write-customer", `${write.shop}:${write.customerId}`, deps.settings.customerLimit] as const]
      : []),
    ["write-shop", write.shop, deps.settings.shopLimit],
  ];
  for (const [scope, subject, rule] of rules) {
    const r = await deps.limits.hit(scope, subject, rule);
    if (!r.ok) return json(429, { error: "busy" }, { "Retry-After": String(r.retryAfterSeconds) });
  }
  return null;
}

/** The shop's client of the service, or the answer when the shop cannot reach it now. */
export async function serviceClient(
  deps: Pick<ReviewWriteDeps, "reviewsFor" | "log">,
  shop: string,
): Promise<ServiceClient | Response> {
  try {
    return await deps.reviewsFor(shop);
  } catch (error) {
    if (error instanceof ShopNotConnectedError || error instanceof ShopNotFoundError)
      return json(503, { error: "unavailable" });
    deps.log.warn(
      { shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
      "app proxy: service client not made",
    );
    return json(503, { error: "unavailable" }, { "Retry-After": "30" });
  }
}

/** What the service's failure means for a submission: keep it and retry, or say why not. */
function retryable(error: unknown): { keep: boolean; outcomeUnknown: boolean } {
  if (!(error instanceof ReviewsError)) return { keep: false, outcomeUnknown: false };
  if (error.kind === "rate_limited" || error.kind === "auth") return { keep: true, outcomeUnknown: false };
  // A timeout, a connection lost or a 5xx: the service may have stored it all the same, so the
  // worker looks for it before sending it again.
  if (error.kind === "retryable") return { keep: true, outcomeUnknown: true };
  return { keep: false, outcomeUnknown: false };
}

/**
 * The answer to a submission the service did not take: kept for the worker (202 "received": a
 * shopper's words are never lost), or refused (422 with `refused`) when the service will not take
 * it however often it is sent.
 */
export async function keptOrRefused(
  deps: Pick<ReviewWriteDeps, "keepPending" | "log">,
  at: { shop: string; sku: string; what: "review" | "question"; submission: PendingPayload },
  error: unknown,
  refused: Record<string, unknown> = { error: "refused" },
): Promise<Response> {
  const { shop, sku, what } = at;
  const how = retryable(error);
  if (!how.keep) {
    deps.log.warn(
      { shop, sku, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
      `app proxy: ${what} refused by the service`,
    );
    return json(422, refused);
  }
  try {
    await deps.keepPending({
      shop,
      sku,
      submission: at.submission,
      outcomeUnknown: how.outcomeUnknown,
      error: error instanceof ReviewsError ? error.kind : "error",
    });
  } catch (keepError) {
    deps.log.error(
      { shop, sku, err: (keepError as Error).message },
      `app proxy: ${what} could not be kept for a retry`,
    );
    return json(503, { error: "unavailable" }, { "Retry-After": "30" });
  }
  deps.log.info(
    { shop, sku, err: error instanceof ReviewsError ? error.kind : "error" },
    `app proxy: ${what} kept for a retry`,
  );
  return json(202, { status: "received" });
}
