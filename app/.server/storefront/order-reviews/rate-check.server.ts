import { ReviewsError, ReviewsPermanentError } from "../../reviews";
import { json } from "../writes/write-request.server";
import { badRequest, failureStatus } from "../proxy/fragment-answers";
import { clientIp } from "../proxy/rate-limits";
import { whenSigned } from "../proxy/verify-proxy.server";
import { proxyCacheKey, type ResponseCache } from "../proxy/response-cache";
import { readModalOrder, type ModalOrder } from "./modal-order";
import type { OrderReviewStatusPageDeps } from "./order-review-status.server";
import type { StorefrontLocale } from "../proxy/reviews-query";
import {
  modalProduct,
  parseRateCheckQuery,
  rateCheckAnswer,
  reviewedPanel,
  type ReviewedPanelVars,
} from "./rate-check";

export interface RateCheckDeps extends OrderReviewStatusPageDeps {
  /** The theme's `rating-modal-reviewed` snippet in the shopper's language. */
  renderReviewed(vars: ReviewedPanelVars, locale: StorefrontLocale): Promise<string>;
  /** The proxy's response cache (PROXY_CACHE_MS): Shopify's order and product, per order and product. */
  cache: ResponseCache;
  settings: OrderReviewStatusPageDeps["settings"] & { redisPrefix: string };
}

// `GET <proxy>/rate-check?order=<service order id>&token=<verification token>[&sku=][&locale=]`: asked by the
// rating modal before it frames the service's rating page (rate-check.ts says why). Order of
// checks: signature (401) → parameters (400) → the IP's and the shop's budgets (429) → the
// service's order review status for that token (404 when the token is not that order's) → Shopify's
// order for its name and product titles. The token is what a rating link carries and what the
// rating page itself accepts: holding it is the right to see the order's products. Whether the
// review is kept in an account comes from the customer id Shopify signed, never from the browser.
// The answer is never cached (it is one buyer's, and what they reviewed changes as they rate), but
// Shopify's part is, per order and product, for the proxy's cache window: a buyer opening the modal
// product after product, or a busy shop's shoppers, spend a few points of the shop's Admin budget
// once, not per opening. Only a holder of the order's token (checked by the service first) reads it.

export function rateCheckResponse(request: Request, deps: RateCheckDeps): Promise<Response> {
  return whenSigned(request, deps.authenticate, async ({ shop, loggedInCustomerId }) => {
    const parsed = parseRateCheckQuery(new URL(request.url).searchParams);
    if (!parsed.ok) return badRequest(parsed.message);
    const { query } = parsed;
    try {
      for (const [kind, key, rule] of [
        ["ip", clientIp(request), deps.settings.ipLimit],
        ["shop", shop, deps.settings.shopLimit],
      ] as const) {
        const hit = await deps.limits.hit(kind, key, rule);
        if (!hit.ok) return json(429, { error: "busy" }, { "Retry-After": String(hit.retryAfterSeconds) });
      }
      const service = await deps.serviceFor(shop);
      let products;
      try {
        ({ products } = await service.api.getOrderReviewStatus(query.token, query.order));
      } catch (e) {
        if (e instanceof ReviewsPermanentError && e.reason === "not_found") return json(404, { error: "not_found" });
        throw e;
      }
      const order = await shopifyOrder(deps, shop, query.order, modalProduct(query.sku, products));
      const customerId = /^\d{1,20}$/.test(loggedInCustomerId) ? loggedInCustomerId : "";
      const body = rateCheckAnswer(query, products, order, customerId);
      // What the buyer shows reviewed is remembered, as the account page does.
      if (body.account) {
        const seen = body.products.filter((p) => p.reviewed).map((p) => p.sku);
        if (seen.length) await deps.reviewed.add(shop, customerId, seen);
      }
      // Reviewed already: the panel in the shop's words, rendered here (the page carries none of it).
      const panel = reviewedPanel(body, query.sku);
      return json(200, panel ? { ...body, html: await deps.renderReviewed(panel, query.locale) } : body);
    } catch (error) {
      const { status, retryAfterSeconds } = failureStatus(error);
      deps.log[status === 502 ? "error" : "warn"](
        { shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
        "app proxy: rate check not answered",
      );
      return json(
        status,
        { error: "unavailable" },
        retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : {},
      );
    }
  });
}

async function shopifyOrder(
  deps: RateCheckDeps,
  shop: string,
  orderId: string,
  productId: string | null,
): Promise<ModalOrder | null> {
  if (!productId) return null;
  const key = proxyCacheKey(deps.settings.redisPrefix, {
    shop,
    route: "rate-check/order",
    normalQuery: new URLSearchParams({ order: orderId, product: productId }).toString(),
  });
  const { value } = await deps.cache.getOrCompute(key, async () => {
    const [gql, settings] = await Promise.all([deps.adminFor(shop), deps.settingsOf(shop)]);
    return JSON.stringify(await readModalOrder(gql, orderId, settings.orders.orderIdSource, productId));
  });
  return JSON.parse(value) as ModalOrder | null;
}
