import type { OrderProductStatus } from "../../reviews";
import { resolveLocale, type StorefrontLocale } from "../proxy/reviews-query";
import type { ShopOrder } from "./customer-orders";
import { safeUrl } from "../../security";

// The order history's review status as the buyer sees it: each order (number, date) with its
// products, each either reviewed (the stars and words the buyer gave) or with a way to rate it (the
// order's verification token, for the rating modal or the rating page). Pure: Shopify's orders and
// the service's answer in, the snippet's variables out. Which products can still be rated is the
// service's call (`active`), and only once the order is fulfilled (before, the product shows as
// "rate it once it arrives"); a product the service does not list for the order (cancelled, not
// synced yet, a custom item) shows without either.

export interface StatusQuery {
  /** One order (the order page), or the history from `after` (a cursor Shopify gave). */
  order: string | null;
  after: string | null;
  locale: StorefrontLocale;
}

const SHOPIFY_PARAMS = new Set(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"]);

export function parseStatusQuery(
  search: URLSearchParams,
): { ok: true; query: StatusQuery } | { ok: false; message: string } {
  for (const key of new Set(search.keys())) {
    if (!SHOPIFY_PARAMS.has(key) && !["order", "after", "locale"].includes(key))
      return { ok: false, message: `${key} is not a parameter of this page (order, after, locale)` };
  }
  const order = search.get("order") || null;
  if (order !== null && !/^\d{1,20}$/.test(order)) return { ok: false, message: "order must be an order id (digits)" };
  const after = search.get("after") || null;
  if (after !== null && !/^[A-Za-z0-9+/=_-]{1,400}$/.test(after))
    return { ok: false, message: "after must be a cursor from the previous page" };
  if (order && after) return { ok: false, message: "give order or after, not both" };
  return { ok: true, query: { order, after, locale: resolveLocale(search.get("locale") ?? undefined) } };
}

/** The id the service knows an order by (the order sync's `orderIdSource`). */
export function serviceOrderId(order: Pick<ShopOrder, "id" | "name">, source: "id" | "name"): string {
  return source === "name" ? order.name : order.id;
}

export interface ServiceOrderReviewStatus {
  orderId: string;
  verificationTokenId: string;
  products: OrderProductStatus[];
}

export interface StatusItem {
  sku: string | null;
  title: string;
  url: string | null;
  image: string | null;
  /**
   * reviewed: `review` holds what the buyer gave; rate: `rate` opens the rating; waiting: to rate once the order is
   * fulfilled; none: not open for reviews.
   */
  state: "reviewed" | "rate" | "waiting" | "none";
  review: { rating: number; text: string } | null;
  rate: { order: string; token: string; sku: string; href: string } | null;
}

export interface StatusOrder {
  id: string;
  name: string;
  date: string;
  /** Products left to rate in this order. */
  toRate: number;
  /** Every item fulfilled (digital goods at once, parcels when shipped). */
  fulfilled: boolean;
  items: StatusItem[];
}

/** What the `order-reviews-page` snippet receives (and the UI extensions' backend answers as JSON). */
export interface StatusPageVars {
  orders: StatusOrder[];
  /** The cursor of the next page of the history; null on the last page and on an order page. */
  next: string | null;
  /** An order page: one order, or none (not this customer's). */
  single: boolean;
}

export function statusOrder(
  order: ShopOrder,
  status: ServiceOrderReviewStatus | undefined,
  rateHref: (p: { verificationTokenId: string; orderId: string; sku: string }) => string,
): StatusOrder {
  const seen = new Set<string>();
  const items: StatusItem[] = [];
  for (const line of order.lines) {
    const key = line.productId ?? `custom:${line.title}`;
    if (seen.has(key)) continue; // one product, several variants: rated once
    seen.add(key);
    const s = line.productId ? status?.products.find((p) => p.sku === line.productId) : undefined;
    const base = {
      sku: line.productId,
      title: line.title,
      url: line.handle ? `/products/${line.handle}` : null,
      image: safeUrl(line.image, "storefront.order_item"),
    };
    if (s && !s.active) {
      const rating = Math.round(Number(s.review?.rating ?? 0));
      items.push({
        ...base,
        state: "reviewed",
        review: { rating: rating >= 1 && rating <= 5 ? rating : 0, text: s.review?.text ?? "" },
        rate: null,
      });
    } else if (s && status && !order.cancelled && !order.fulfilled) {
      // Not received yet: nobody can say what it is like. The service asks once it is delivered.
      items.push({ ...base, state: "waiting", review: null, rate: null });
    } else if (s && status && !order.cancelled) {
      // The rating page's address starts with the account's rate URL: a buyer follows it, so the one URL rule applies.
      const href = safeUrl(
        rateHref({ verificationTokenId: status.verificationTokenId, orderId: status.orderId, sku: s.sku }),
        "storefront.rate_url",
      );
      if (href)
        items.push({
          ...base,
          state: "rate",
          review: null,
          rate: { order: status.orderId, token: status.verificationTokenId, sku: s.sku, href },
        });
      else items.push({ ...base, state: "none", review: null, rate: null });
    } else {
      items.push({ ...base, state: "none", review: null, rate: null });
    }
  }
  return {
    id: order.id,
    name: order.name,
    date: order.processedAt,
    fulfilled: order.fulfilled,
    toRate: items.filter((i) => i.state === "rate").length,
    items,
  };
}

/**
 * One buyer, one review per product: a product the buyer reviewed (in another order, on the product
 * page, or as the app remembers) is not offered to rate again in any order. It shows as reviewed,
 * with the stars and words of the order where they gave them when this page holds it.
 */
export function oneReviewPerProduct(orders: StatusOrder[], reviewedBefore: ReadonlySet<string>): StatusOrder[] {
  const given = new Map<string, StatusItem["review"]>();
  for (const o of orders)
    for (const i of o.items) if (i.state === "reviewed" && i.sku && !given.has(i.sku)) given.set(i.sku, i.review);
  return orders.map((o) => {
    const items = o.items.map((i): StatusItem => {
      if (!i.sku || (i.state !== "rate" && i.state !== "waiting") || !(given.has(i.sku) || reviewedBefore.has(i.sku)))
        return i;
      return { ...i, state: "reviewed", review: given.get(i.sku) ?? { rating: 0, text: "" }, rate: null };
    });
    return { ...o, items, toRate: items.filter((i) => i.state === "rate").length };
  });
}

/** The products this page shows reviewed (for the app's memory of the buyer's reviews). */
export const reviewedSkus = (orders: readonly StatusOrder[]): string[] => [
  ...new Set(orders.flatMap((o) => o.items.filter((i) => i.state === "reviewed" && i.sku).map((i) => i.sku as string))),
];
