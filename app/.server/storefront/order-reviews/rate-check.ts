import type { OrderProductStatus } from "../../reviews";
import { safeUrl } from "../../security";
import { PRODUCT_KEY } from "../proxy/path-keys";
import { resolveLocale, type StorefrontLocale } from "../proxy/reviews-query";
import type { ShopOrder } from "./customer-orders";

// What the rating modal asks before it opens the service's rating page: the order as its buyer
// knows it (Shopify's name), the products with Shopify's titles and images, and which of them the
// buyer reviewed already (the service's documented order review status, `active: false`). With
// it the modal says "You have already reviewed this product" in the shopper's language instead of
// framing the service's untranslated page, and names the product once. Pure: the two answers in,
// the JSON out.

export interface RateCheckQuery {
  /** The service's order id (Shopify's numeric id, or the name when the shop sends names). */
  order: string;
  /** The order's verification token: whoever holds it may rate the order (the service's link). */
  token: string;
  sku: string | null;
  locale: StorefrontLocale;
}

const SHOPIFY_PARAMS = new Set(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"]);
const ORDER_ID = /^#?[A-Za-z0-9._-]{1,64}$/;
const TOKEN = /^[A-Za-z0-9._~-]{8,200}$/;

export function parseRateCheckQuery(
  search: URLSearchParams,
): { ok: true; query: RateCheckQuery } | { ok: false; message: string } {
  for (const key of new Set(search.keys()))
    if (!SHOPIFY_PARAMS.has(key) && !["order", "token", "sku", "locale"].includes(key))
      return { ok: false, message: `${key} is not a parameter of this check (order, token, sku, locale)` };
  const order = search.get("order") ?? "";
  const token = search.get("token") ?? "";
  const sku = search.get("sku") || null;
  if (!ORDER_ID.test(order)) return { ok: false, message: "order must be the service's order id" };
  if (!TOKEN.test(token)) return { ok: false, message: "token must be the order's verification token" };
  if (sku !== null && !PRODUCT_KEY.test(sku)) return { ok: false, message: "sku must be a product id" };
  return { ok: true, query: { order, token, sku, locale: resolveLocale(search.get("locale") ?? undefined) } };
}

export interface RateCheckProduct {
  sku: string;
  /** Shopify's title; null when Shopify no longer has the line (the modal then names none). */
  title: string | null;
  /** The product page's path (without the locale: the theme adds its root). */
  url: string | null;
  /** Shopify's product image, through the one URL rule. */
  image: string | null;
  reviewed: boolean;
  /** The stars the buyer gave, when the service says. */
  rating: number | null;
}

export interface RateCheckAnswer {
  /** Shopify's name for the order ("#1002"); null when Shopify cannot say. */
  name: string | null;
  /** The products asked about: the one `sku`, or every product of the order the service lists. */
  products: RateCheckProduct[];
  /** Every product asked about is reviewed: the modal shows its own message, not the rating page. */
  reviewed: boolean;
  /** The order is the logged-in customer's: their review is kept in their account. */
  account: boolean;
}

export function rateCheckAnswer(
  query: Pick<RateCheckQuery, "sku">,
  status: readonly OrderProductStatus[],
  order: Pick<ShopOrder, "name" | "customerId" | "lines"> | null,
  loggedInCustomerId: string,
): RateCheckAnswer {
  const asked = query.sku ? status.filter((p) => p.sku === query.sku) : status;
  const products = asked.map((p): RateCheckProduct => {
    const line = order?.lines.find((l) => l.productId === p.sku);
    const rating = Math.round(Number(p.review?.rating ?? 0));
    return {
      sku: p.sku,
      title: line?.title ?? null,
      url: line?.handle ? `/products/${line.handle}` : null,
      image: safeUrl(line?.image ?? null, "storefront.order_item"),
      reviewed: !p.active,
      rating: !p.active && rating >= 1 && rating <= 5 ? rating : null,
    };
  });
  return {
    name: order?.name ?? null,
    products,
    reviewed: products.length > 0 && products.every((p) => p.reviewed),
    account: !!loggedInCustomerId && order?.customerId === loggedInCustomerId,
  };
}

/**
 * The one product whose title and image the modal shows, of those the service lists on the order
 * (never one the query names alone): the product asked, else the first (the whole order's panel
 * links to it). Null when the service lists none: Shopify is then not asked, not even for the name.
 */
export function modalProduct(sku: string | null, status: readonly OrderProductStatus[]): string | null {
  return ((sku && status.find((p) => p.sku === sku)) || status[0])?.sku ?? null;
}

/** What the `rating-modal-reviewed` snippet receives: the modal's panel for a product reviewed already. */
export interface ReviewedPanelVars {
  /** Every product of the order (no one product asked). */
  all: boolean;
  rating: number;
  /** Where the review is kept: the account, or the product's page (its path, without the locale). */
  link: { kind: "account" | "product"; path: string } | null;
}

export function reviewedPanel(answer: RateCheckAnswer, sku: string | null): ReviewedPanelVars | null {
  if (!answer.reviewed) return null;
  const item = sku
    ? answer.products.find((p) => p.sku === sku)
    : answer.products.length === 1
      ? answer.products[0]
      : undefined;
  const path = (item ?? answer.products.find((p) => p.url))?.url ?? null;
  return {
    all: !item,
    rating: item?.rating ?? 0,
    link: answer.account ? { kind: "account", path: "" } : path ? { kind: "product", path } : null,
  };
}
