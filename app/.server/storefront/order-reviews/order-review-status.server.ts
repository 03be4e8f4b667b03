import type { Logger } from "pino";
import { ReviewsError, ReviewsPermanentError, type ReviewsStorefrontApi } from "../../reviews";
import type { AdminGraphql } from "../../shopify";
import type { ShopSettings } from "../../settings";
import { cacheControl } from "../proxy/cache-control";
import { badRequest, failureStatus, fragmentFailure } from "../proxy/fragment-answers";
import { clientIp, type LimitRule, type RateLimiter } from "../proxy/rate-limits";
import type { StorefrontLocale } from "../proxy/reviews-query";
import { whenSigned, type AppProxyAuthenticate } from "../proxy/verify-proxy.server";
import { CustomerWithoutEmailError, type CustomerIdentity } from "../shopper/customer-identity";
import { readCustomerOrder, readCustomerOrders } from "./customer-orders";
import {
  oneReviewPerProduct,
  parseStatusQuery,
  reviewedSkus,
  serviceOrderId,
  statusOrder,
  type ServiceOrderReviewStatus,
  type StatusOrder,
  type StatusPageVars,
} from "./order-review-status-page";
import type { ReviewedProducts } from "../shopper/reviewed-products";

// "Rate your order" for a logged-in customer: their orders as Shopify holds them (the customer id
// Shopify signed, never one the browser names), each with the service's review status. The
// history costs one `orders/find-batch` call per page of 20 orders; an order page costs
// `orders/find` and the order's status (the spec's two flows). The same answer feeds the classic
// account's theme block (HTML through the app proxy) and the customer account / thank-you UI
// extensions (JSON, with the customer from their session token).

export type OrderReviewStatusApi = Pick<ReviewsStorefrontApi, "findOrdersBatch" | "findOrder" | "getOrderReviewStatus">;

export interface OrderReviewStatusDeps {
  adminFor(shop: string): Promise<AdminGraphql>;
  customerIdentity(shop: string, customerId: string): Promise<CustomerIdentity>;
  settingsOf(shop: string): Promise<ShopSettings>;
  /** The service's client for the shop and the address of its rating page for an order. */
  serviceFor(shop: string): Promise<{
    api: OrderReviewStatusApi;
    rateHref(p: { verificationTokenId: string; orderId: string; sku: string }): string;
  }>;
  /** Products each customer reviewed: one review per product, whichever order or page it came from. */
  reviewed: ReviewedProducts;
}

/** The orders with what the buyer reviewed anywhere applied, and what they show reviewed remembered. */
async function onePerProduct(
  deps: OrderReviewStatusDeps,
  shop: string,
  customerId: string,
  orders: StatusOrder[],
): Promise<StatusOrder[]> {
  const seen = reviewedSkus(orders);
  const [before] = await Promise.all([deps.reviewed.all(shop, customerId), deps.reviewed.add(shop, customerId, seen)]);
  return oneReviewPerProduct(orders, before);
}

/** The service's user for a customer: id and e-mail; the id alone when Shopify has no e-mail. */
async function serviceUserOf(
  deps: OrderReviewStatusDeps,
  shop: string,
  customerId: string,
): Promise<{ userId: string; email?: string }> {
  try {
    const who = await deps.customerIdentity(shop, customerId);
    return { userId: who.userId, email: who.email };
  } catch (e) {
    if (e instanceof CustomerWithoutEmailError) return { userId: customerId };
    throw e;
  }
}

/** The customer's orders from `after` (the history), or one order (`order`): null when it is not theirs. */
export async function customerOrderReviewStatus(
  deps: OrderReviewStatusDeps,
  shop: string,
  customerId: string,
  query: { order: string | null; after: string | null },
): Promise<StatusPageVars> {
  const gql = await deps.adminFor(shop);
  const source = (await deps.settingsOf(shop)).orders.orderIdSource;
  if (query.order) {
    const order = await readCustomerOrder(gql, customerId, query.order);
    if (!order) return { orders: [], next: null, single: true };
    const [who, service] = await Promise.all([serviceUserOf(deps, shop, customerId), deps.serviceFor(shop)]);
    const orderId = serviceOrderId(order, source);
    let status: ServiceOrderReviewStatus | undefined;
    try {
      const found = await service.api.findOrder({ orderId, ...who });
      const { products } = await service.api.getOrderReviewStatus(found.verificationTokenId, found.orderId || orderId);
      status = { orderId: found.orderId || orderId, verificationTokenId: found.verificationTokenId, products };
    } catch (e) {
      // Not at the service (yet): the order shows without ratings.
      if (!(e instanceof ReviewsPermanentError && e.reason === "not_found")) throw e;
    }
    return {
      orders: await onePerProduct(deps, shop, customerId, [statusOrder(order, status, service.rateHref)]),
      next: null,
      single: true,
    };
  }
  const { orders, next } = await readCustomerOrders(gql, customerId, { after: query.after });
  if (!orders.length) return { orders: [], next, single: false };
  const [who, service] = await Promise.all([serviceUserOf(deps, shop, customerId), deps.serviceFor(shop)]);
  const ids = orders.map((o) => serviceOrderId(o, source));
  const batch = await service.api.findOrdersBatch({ orderIds: [...new Set(ids)], ...who });
  const byId = new Map(batch.orders.map((o) => [o.orderId, o]));
  return {
    orders: await onePerProduct(
      deps,
      shop,
      customerId,
      orders.map((o, i) => statusOrder(o, byId.get(ids[i]!), service.rateHref)),
    ),
    next,
    single: false,
  };
}

export interface OrderReviewStatusPageDeps extends OrderReviewStatusDeps {
  authenticate: AppProxyAuthenticate;
  limits: RateLimiter;
  log: Logger;
  renderOrders(vars: StatusPageVars & { login: boolean }, locale: StorefrontLocale): Promise<string>;
  renderError(locale: StorefrontLocale): Promise<string>;
  settings: { ipLimit: LimitRule; shopLimit: LimitRule };
}

const html = (body: string) =>
  new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": cacheControl({ dependsOnCustomer: true, maxAgeMs: 0 }),
    },
  });

/**
 * `GET <proxy>/orders[?after=<cursor>|?order=<id>][&locale=]`: the logged-in customer's orders with
 * their review status, as HTML from the theme's `order-reviews-page` snippet. Never cached: it is
 * one customer's. A shopper who is not logged in gets the page asking them to.
 */
export function orderReviewStatusPageResponse(request: Request, deps: OrderReviewStatusPageDeps): Promise<Response> {
  return whenSigned(request, deps.authenticate, async ({ shop, loggedInCustomerId: customerId }) => {
    const parsed = parseStatusQuery(new URL(request.url).searchParams);
    if (!parsed.ok) return badRequest(parsed.message);
    const { query } = parsed;
    if (!/^\d{1,20}$/.test(customerId))
      return html(
        await deps.renderOrders({ orders: [], next: null, single: !!query.order, login: true }, query.locale),
      );
    try {
      const ip = await deps.limits.hit("ip", clientIp(request), deps.settings.ipLimit);
      if (!ip.ok) return fragmentFailure(deps, query.locale, "busy", 429, ip.retryAfterSeconds);
      const shopLimit = await deps.limits.hit("shop", shop, deps.settings.shopLimit);
      if (!shopLimit.ok) return fragmentFailure(deps, query.locale, "busy", 429, shopLimit.retryAfterSeconds);
      const vars = await customerOrderReviewStatus(deps, shop, customerId, query);
      return html(await deps.renderOrders({ ...vars, login: false }, query.locale));
    } catch (error) {
      const { status, retryAfterSeconds } = failureStatus(error);
      deps.log[status === 502 ? "error" : "warn"](
        { shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
        "app proxy: order review status not served",
      );
      return fragmentFailure(deps, query.locale, "unavailable", status, retryAfterSeconds);
    }
  });
}
