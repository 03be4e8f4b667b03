import type { ShopSettings } from "../settings";
import { legacyId, productKey, variantKey, type VariantKeyMode } from "./keys";
import { isLineCancelled, paymentStatus, refundedQuantities, type FulfillmentFacts } from "./order-status";
import type { OrderStatusV2 } from "../reviews";
import type { MappedOrderItem, OrderItemProductData, ShopifyLineItem, ShopifyOrder } from "./order.schemas";
import { trimmed } from "./order.text";

// The items of a mapped order: one per product variant and seller, with its own status, seller
// and what the catalog mirror knows of the product. Pure, like the mapper.

/** What the catalog mirror knows of a product; empty and null values are dropped. */
export interface ProductData {
  name?: string | null;
  productName?: string | null;
  brand?: string | null;
  brandName?: string | null;
  url?: string | null;
  image?: string | null;
  categories?: readonly string[] | null;
  categoryName?: string | null;
  gtin?: string | null;
  ean?: string | null;
  mpn?: string | null;
}

/** What the items read of the mapping context (order.mapper.ts, OrderMapContext). */
export interface ItemsContext {
  settings: Pick<ShopSettings["orders"], "seller">;
  /** settings.catalog.variantKey: the same key the catalog sends as `variants[]`. */
  variantKeyMode: VariantKeyMode;
  /** From the catalog mirror by product key; undefined = unknown (the caller fetches it later). */
  productData: (productId: string) => ProductData | undefined;
}

function slug(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

function seller(line: ShopifyLineItem, mode: ShopSettings["orders"]["seller"]): MappedOrderItem["sellerInfo"] {
  let name: string | undefined;
  if (mode.mode === "vendor") {
    name = trimmed(line.vendor);
  } else if (mode.mode === "property") {
    const props = (line.properties ?? []).filter((p) => p && typeof p.name === "string");
    const wanted = mode.property.trim().toLowerCase();
    const prop =
      props.find((p) => p.name === mode.property) ?? props.find((p) => p.name!.trim().toLowerCase() === wanted);
    name = prop?.value == null ? undefined : trimmed(String(prop.value));
  }
  return name ? { id: slug(name) || name, name } : undefined;
}

function cleanProductData(data: ProductData | undefined): OrderItemProductData | undefined {
  if (!data) return undefined;
  const out: OrderItemProductData = {};
  for (const key of [
    "name",
    "productName",
    "brand",
    "brandName",
    "mpn",
    "ean",
    "gtin",
    "url",
    "image",
    "categoryName",
  ] as const) {
    const v = trimmed(data[key]);
    if (v) out[key] = v;
  }
  const categories = [...new Set((data.categories ?? []).map(trimmed).filter((c): c is string => !!c))];
  if (categories.length > 0) out.categories = categories;
  return Object.keys(out).length > 0 ? out : undefined;
}

const STATUS_RANK: Record<OrderStatusV2, number> = {
  cancelled: 0,
  created: 1,
  authorized: 2,
  paid: 3,
  invoiced: 4,
  shipped: 5,
  delivered: 6,
};

interface ItemDraft {
  item: MappedOrderItem;
  lines: { status: OrderStatusV2; cancelled: boolean }[];
}

/**
 * Several line items of the same variant (added twice, split by an edit, different properties)
 * become one item: the service knows products and variants, not lines. Lines of the same variant
 * sold by different sellers stay apart. The merged item is cancelled only when every line is, and
 * takes the most advanced status of its live lines: one delivered unit is enough to review.
 */
function mergeItem(draft: ItemDraft): MappedOrderItem {
  const live = draft.lines.filter((l) => !l.cancelled);
  const pool = live.length > 0 ? live : draft.lines;
  const status = pool.reduce(
    (best, l) => (STATUS_RANK[l.status] > STATUS_RANK[best] ? l.status : best),
    pool[0]!.status,
  );
  return { ...draft.item, status, cancelled: live.length === 0 };
}

export function mapItems(
  order: ShopifyOrder,
  ctx: ItemsContext,
  orderStatus: OrderStatusV2,
  fulfillments: FulfillmentFacts[],
): MappedOrderItem[] {
  const refunded = refundedQuantities(order);
  const payment = paymentStatus(order);
  const productDataCache = new Map<string, OrderItemProductData | undefined>();
  const drafts = new Map<string, ItemDraft>();

  for (const line of order.line_items ?? []) {
    // Custom items (no product) cannot be tied to a catalog product and gift cards are not
    // reviewable: both stay out of items, the order itself is still sent.
    if (line.product_id == null || line.gift_card === true) continue;
    const productId = productKey(line.product_id);
    if (!productId) continue;

    const sku =
      line.variant_id != null
        ? variantKey({ id: line.variant_id, sku: line.sku }, ctx.variantKeyMode) || undefined
        : ctx.variantKeyMode === "sku"
          ? trimmed(line.sku)
          : undefined;
    const variantTitle = trimmed(line.variant_title);
    const skuName = variantTitle && variantTitle.toLowerCase() !== "default title" ? variantTitle : undefined;
    const sellerInfo = seller(line, ctx.settings.seller);

    const lineId = legacyId(line.id);
    const cancelled = isLineCancelled(line, refunded) || orderStatus === "cancelled";
    const carriers = fulfillments.filter((f) => f.lineItemIds.has(lineId));
    // A line fulfilled by its own fields but named by no fulfillment (payload trimmed by
    // include_fields): it went with the order.
    const fulfilledUnlisted =
      carriers.length === 0 &&
      (orderStatus === "shipped" || orderStatus === "delivered") &&
      (line.fulfillment_status === "fulfilled" ||
        (typeof line.fulfillable_quantity === "number" && line.fulfillable_quantity <= 0 && !cancelled));
    let status: OrderStatusV2;
    if (
      carriers.some((f) => f.delivered) ||
      (orderStatus === "delivered" && (carriers.some((f) => f.shipped) || fulfilledUnlisted))
    ) {
      status = "delivered";
    } else if (carriers.some((f) => f.shipped) || fulfilledUnlisted) {
      status = "shipped";
    } else if (cancelled) {
      status = "cancelled";
    } else {
      status = payment;
    }

    const key = [productId, sku ?? "", sellerInfo?.id ?? ""].join("\u0000");
    let draft = drafts.get(key);
    if (!draft) {
      if (!productDataCache.has(productId))
        productDataCache.set(productId, cleanProductData(ctx.productData(productId)));
      const productData = productDataCache.get(productId);
      const item: MappedOrderItem = { productId };
      if (sku) item.sku = sku;
      if (skuName) item.skuName = skuName;
      if (sellerInfo) item.sellerInfo = sellerInfo;
      if (productData) item.productData = productData;
      draft = { item, lines: [] };
      drafts.set(key, draft);
    } else if (!draft.item.skuName && skuName) {
      draft.item.skuName = skuName;
    }
    draft.lines.push({ status, cancelled });
  }
  return [...drafts.values()].map(mergeItem);
}
