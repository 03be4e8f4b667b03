import type { Logger } from "pino";
import { ReviewsError } from "../../reviews";
import { failureStatus } from "../proxy/fragment-answers";
import type { LimitRule, RateLimiter } from "../proxy/rate-limits";
import { customerOrderReviewStatus, type OrderReviewStatusDeps } from "./order-review-status.server";
import type { StatusOrder } from "./order-review-status-page";

// The backend of the customer account order status block and the thank-you block. Each request
// carries the extension's session token (`Authorization: Bearer`), checked by the library with the
// app's secret; the shop is its `dest`, the customer its `sub` (present only for a logged-in buyer,
// and only to an app with protected customer data access). The order id comes from the page and
// is never trusted alone: the order must be that customer's in Shopify, and the service is asked
// with that customer's identity. A checkout token without a customer gets the schedule only.

type Authenticate = (
  request: Request,
) => Promise<{ sessionToken: { dest?: unknown; sub?: unknown; aud?: unknown }; cors: (r: Response) => Response }>;

export interface ExtensionReviewStatusDeps extends OrderReviewStatusDeps {
  customerAccount: Authenticate;
  checkout: Authenticate;
  apiKey: string;
  limits: RateLimiter;
  log: Logger;
  settings: { shopLimit: LimitRule };
}

/** What the thank-you block shows: rate now (the order is fulfilled and has products to rate), or "we will ask you". */
export type ThankYouAnswer = { state: "rate"; order: StatusOrder } | { state: "later" };

export function thankYouAnswer(order: StatusOrder | null): ThankYouAnswer {
  return order && order.fulfilled && order.toRate > 0 ? { state: "rate", order } : { state: "later" };
}

/** `gid://shopify/Order/1`, `gid://shopify/OrderIdentity/1` or `1` → `1`; null otherwise. */
export function legacyOrderId(value: string | null): string | null {
  const m = /^(?:gid:\/\/shopify\/Order(?:Identity)?\/)?(\d{1,20})$/.exec(value ?? "");
  return m ? m[1]! : null;
}

const shopOf = (dest: unknown) =>
  typeof dest === "string" ? dest.replace(/^https:\/\//, "").replace(/\/.*$/, "") : "";
const customerOf = (sub: unknown) =>
  typeof sub === "string" ? (/^gid:\/\/shopify\/Customer\/(\d{1,20})$/.exec(sub)?.[1] ?? null) : null;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "private, no-store", ...headers },
  });

async function answer(
  request: Request,
  deps: ExtensionReviewStatusDeps,
  authenticate: Authenticate,
  respond: (at: { shop: string; customerId: string | null; orderId: string }) => Promise<Response>,
): Promise<Response> {
  let auth: Awaited<ReturnType<Authenticate>>;
  try {
    auth = await authenticate(request);
  } catch (thrown) {
    // The library answers a missing or bad token (401) and the browser's preflight itself.
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  const { sessionToken, cors } = auth;
  // The library does not check the audience of extension tokens: a token minted for another app
  // (signed with another secret) already fails, this also refuses one meant for another client id.
  if (sessionToken.aud !== deps.apiKey) return cors(json(401, { error: "invalid_token" }));
  const shop = shopOf(sessionToken.dest);
  const orderId = legacyOrderId(new URL(request.url).searchParams.get("order"));
  if (!/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop)) return cors(json(401, { error: "invalid_token" }));
  if (!orderId) return cors(json(400, { error: "order must be an order id" }));
  try {
    const limit = await deps.limits.hit("shop", shop, deps.settings.shopLimit);
    if (!limit.ok) return cors(json(429, { error: "busy" }, { "Retry-After": String(limit.retryAfterSeconds) }));
    return cors(await respond({ shop, customerId: customerOf(sessionToken.sub), orderId }));
  } catch (error) {
    const { status, retryAfterSeconds } = failureStatus(error);
    deps.log[status === 502 ? "error" : "warn"](
      { shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
      "extension: order review status not served",
    );
    return cors(
      json(
        status,
        { error: "unavailable" },
        retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) },
      ),
    );
  }
}

/** `GET /extensions/order-status?order=<id>`: `{order}` with its review status, null when it is not the customer's. */
export function orderReviewStatusForExtension(request: Request, deps: ExtensionReviewStatusDeps): Promise<Response> {
  return answer(request, deps, deps.customerAccount, async ({ shop, customerId, orderId }) => {
    if (!customerId) return json(403, { error: "customer_required" });
    const { orders } = await customerOrderReviewStatus(deps, shop, customerId, { order: orderId, after: null });
    return json(200, { order: orders[0] ?? null });
  });
}

/** `GET /extensions/thank-you?order=<id>`: rate now, or "we will ask you" (always for a guest). */
export function thankYouForExtension(request: Request, deps: ExtensionReviewStatusDeps): Promise<Response> {
  return answer(request, deps, deps.checkout, async ({ shop, customerId, orderId }) => {
    if (!customerId) return json(200, thankYouAnswer(null));
    const { orders } = await customerOrderReviewStatus(deps, shop, customerId, { order: orderId, after: null });
    return json(200, thankYouAnswer(orders[0] ?? null));
  });
}
