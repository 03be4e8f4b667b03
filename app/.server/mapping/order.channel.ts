import type { ShopifyOrder } from "./order.schemas";

// Where an order came from (`pointOfSale`) and how it reaches the buyer (`deliveryMethod`). Both are
// free text in the spec; the values below are stable so that the merchant can filter on them.

// Maps, not object literals: a source_name such as "constructor" must not reach Object.prototype.
const POINT_OF_SALE: ReadonlyMap<string, string> = new Map([
  ["web", "online store"],
  ["pos", "point of sale"],
  ["shopify_draft_order", "draft order"],
  // Orders created in Shopify's own mobile apps.
  ["iphone", "mobile app"],
  ["android", "mobile app"],
]);

/**
 * `source_name` → pointOfSale. Other values are a sales channel's app id or handle (marketplaces,
 * social channels, headless storefronts); we have no name for them without an extra API call, so
 * they are sent as "sales channel <source_name>".
 */
export function pointOfSaleOf(order: Pick<ShopifyOrder, "source_name">): string | undefined {
  const source = order.source_name?.trim();
  if (!source) return undefined;
  return POINT_OF_SALE.get(source.toLowerCase()) ?? `sales channel ${source}`;
}

export type DeliveryMethod = "shipping" | "local delivery" | "pickup" | "pickup point" | "in store";

// Shopify's delivery method types (GraphQL DeliveryMethodType: SHIPPING, LOCAL, PICK_UP,
// PICKUP_POINT, RETAIL, NONE) as they may appear, in any case and punctuation, in delivery_category.
const BY_CATEGORY: ReadonlyMap<string, DeliveryMethod | null> = new Map([
  ["shipping", "shipping"],
  ["local", "local delivery"],
  ["localdelivery", "local delivery"],
  ["pickup", "pickup"],
  ["localpickup", "pickup"],
  ["instorepickup", "pickup"],
  ["pickuppoint", "pickup point"],
  ["retail", "in store"],
  ["none", null],
]);

const PICKUP_POINT_HINT = /pick[\s_-]?up[\s_-]?point|point[\s_-]?relais|parcel[\s_-]?(?:shop|locker)|packstation/i;
const PICKUP_HINT = /pick[\s_-]?up|click[\s_-]*(?:&|and|n)?[\s_-]*collect|collect[\s_-]?in[\s_-]?store|in[\s_-]?store/i;
const LOCAL_DELIVERY_HINT = /local[\s_-]?delivery/i;

/**
 * How the order reaches the buyer, from its first shipping line:
 * 1. `delivery_category` when Shopify filled it (shipping, local, pick-up, pickup point, retail);
 * 2. otherwise hints in the line's code, title and source: "pickup point"/"point relais"/"parcel
 *    locker" → pickup point; "pickup"/"click & collect"/"in store" → pickup; "local delivery" →
 *    local delivery; anything else → shipping (carrier rates, custom rates, free shipping);
 * 3. no shipping line: "in store" for POS sales (the buyer left with the goods), nothing otherwise
 *    (digital goods, or a payload without shipping_lines).
 */
export function deliveryMethodOf(
  order: Pick<ShopifyOrder, "shipping_lines" | "source_name">,
): DeliveryMethod | undefined {
  const line = order.shipping_lines?.[0];
  if (!line) return order.source_name?.trim().toLowerCase() === "pos" ? "in store" : undefined;
  const category = line.delivery_category?.toLowerCase().replace(/[^a-z]/g, "");
  if (category && BY_CATEGORY.has(category)) return BY_CATEGORY.get(category) ?? undefined;
  const hints = [line.code, line.title, line.source].filter((s): s is string => typeof s === "string").join(" ");
  if (PICKUP_POINT_HINT.test(hints)) return "pickup point";
  if (PICKUP_HINT.test(hints)) return "pickup";
  if (LOCAL_DELIVERY_HINT.test(hints)) return "local delivery";
  return "shipping";
}
