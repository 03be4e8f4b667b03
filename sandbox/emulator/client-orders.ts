// Order review status (Client API): `orders/find`, `orders/{verificationTokenId}/{orderId}` and
// `orders/find-batch`.
//
// Choices where the spec says "not shown" (also in README.md):
// - One verification token per order (issued when the order is created), used for every product of
//   that order.
// - `products` lists the order's reviewable items, one per product SKU (v1 `sku`, v2 `productId`);
//   cancelled items, and every item of a cancelled order, are left out. `active` is false as soon as
//   a review (any moderation status) exists for that product through that order.
// - `find` and `find-batch` need `email` or `userId` (400 otherwise); emails compare
//   case-insensitively. An unknown verification token/order pair answers 404.
// - find-batch: 1 to 20 `orderIds` (400 otherwise), duplicates dropped, request order kept.
//   `sellers` elements are `{id, name}` from the items' `sellerInfo`, distinct by id.
// - Batch `product` comes from the catalog, or from the item's `productData` when the catalog does
//   not know the SKU; unknown fields are null.
import { z } from "zod";
import { badRequest, json, notFound, parseWith } from "./http";
import type { Route } from "./router";
import { clientCustomer, type Ctx, type Services } from "./services";
import { orderOfUser } from "./client-common";
import { itemProductSku, reviewableItems } from "./orders.rules";
import type { CustomerState } from "./store";
import type { OrderItem, SellerInfo, StoredOrder } from "./types";

export const MAX_BATCH_ORDERS = 20;

const who = {
  email: z.string().optional(),
  userId: z.string().optional(),
};
const findSchema = z.object({ orderId: z.string().min(1, "orderId is required"), ...who });
const batchSchema = z.object({
  orderIds: z
    .array(z.string())
    .min(1, "orderIds must not be empty")
    .max(MAX_BATCH_ORDERS, `orderIds accepts at most ${MAX_BATCH_ORDERS} orders`),
  ...who,
});

function requireWho(input: { email?: string; userId?: string }) {
  const email = input.email?.trim() || undefined;
  const userId = input.userId?.trim() || undefined;
  if (!email && !userId) throw badRequest("email or userId is required");
  return { email, userId };
}

function productStatus(cs: CustomerState, order: StoredOrder, item: OrderItem) {
  const sku = itemProductSku(item);
  const review = cs
    .reviewsOf(sku)
    .filter((r) => r.orderId === order.orderId)
    .sort((a, b) => (a.created < b.created ? 1 : -1))[0];
  return {
    sku,
    active: review === undefined,
    review: review ? { rating: review.rating, text: review.text, created: review.created } : null,
  };
}

function productInfo(cs: CustomerState, item: OrderItem) {
  const sku = itemProductSku(item);
  const p = cs.products.get(sku);
  if (p) {
    return {
      sku,
      name: p.name,
      brand: p.brand ?? null,
      mpn: p.mpn ?? null,
      url: p.url ?? null,
      image: p.image ?? null,
    };
  }
  const d = item.productData;
  return {
    sku,
    name: d?.name ?? d?.productName ?? item.skuName ?? null,
    brand: d?.brand ?? d?.brandName ?? null,
    mpn: d?.mpn ?? null,
    url: d?.url ?? null,
    image: d?.image ?? null,
  };
}

function find(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const input = parseWith(findSchema, ctx.body ?? {});
  const order = orderOfUser(cs.orders.get(input.orderId), requireWho(input));
  if (!order) throw notFound("order not found for this user");
  return json(200, { verificationTokenId: order.verificationTokenId, orderId: order.orderId });
}

export function orderByToken(cs: CustomerState, verificationTokenId: string, orderId: string): StoredOrder | undefined {
  const order = cs.orders.get(orderId);
  return order && order.verificationTokenId === verificationTokenId ? order : undefined;
}

function status(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const order = orderByToken(cs, ctx.params.verificationTokenId, ctx.params.orderId);
  if (!order) throw notFound("order not found");
  return json(200, { products: reviewableItems(order).map((item) => productStatus(cs, order, item)) });
}

function findBatch(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const input = parseWith(batchSchema, ctx.body ?? {});
  const user = requireWho(input);
  const orders = [...new Set(input.orderIds)].flatMap((id) => {
    const order = orderOfUser(cs.orders.get(id), user);
    if (!order) return [];
    const sellers = new Map<string, SellerInfo>();
    for (const item of order.items) {
      if (item.sellerInfo && !sellers.has(item.sellerInfo.id)) {
        sellers.set(item.sellerInfo.id, { id: item.sellerInfo.id, name: item.sellerInfo.name });
      }
    }
    return [
      {
        orderId: order.orderId,
        verificationTokenId: order.verificationTokenId,
        products: reviewableItems(order).map((item) => ({
          ...productStatus(cs, order, item),
          product: productInfo(cs, item),
        })),
        sellers: [...sellers.values()],
      },
    ];
  });
  return json(200, { orders });
}

export const clientOrderRoutes: Route<Services>[] = [
  { method: "POST", pattern: "/api/:customer/orders/find", auth: "none", cors: true, handler: find },
  { method: "POST", pattern: "/api/:customer/orders/find-batch", auth: "none", cors: true, handler: findBatch },
  {
    method: "GET",
    pattern: "/api/:customer/orders/:verificationTokenId/:orderId",
    auth: "none",
    cors: true,
    handler: status,
  },
];
