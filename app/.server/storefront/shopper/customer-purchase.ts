import { ANY_PRODUCT, type PurchaseMemory } from "../../customers";
import type { ReviewsStorefrontApi } from "../../reviews";
import type { AdminGraphql } from "../../shopify";
import { readCustomerOrders } from "../order-reviews/customer-orders";
import { serviceOrderId } from "../order-reviews/order-review-status-page";

// Whether a logged-in customer bought a product, and what the service says of it in their orders:
// one still open for a review (its order and verification token: a review sent with them is tied
// to that order and marked a verified purchase), all of them reviewed, or no order of theirs holds
// it. Shopify's orders (newest first, a bounded number of pages) say which orders hold the product;
// the service's `orders/find-batch` says which of those it knows and whether each was reviewed.
// A page of orders carries each order's first lines only: an order with more is asked of the
// service too, whose list of the order's products says whether it holds this one.
// What Shopify said is remembered a few minutes (customers/purchases.ts): a buyer's next review
// reads only the orders that may hold its product, in one Redis read.

/** Pages of 20 orders read at most: a buyer's recent history, bounded for a shopper's request. */
export const PURCHASE_PAGES = 5;

export type Purchase =
  { kind: "open"; orderId: string; verificationTokenId: string } | { kind: "reviewed" } | { kind: "none" };

export async function customerPurchase(
  deps: {
    /** Shopify, asked only when the customer's purchases are not remembered. */
    gql: () => Promise<AdminGraphql>;
    client: Pick<ReviewsStorefrontApi, "findOrdersBatch">;
    orderIdSource: "id" | "name";
    purchases: PurchaseMemory;
    shop: string;
  },
  who: { customerId: string; userId: string; email?: string },
  productId: string,
): Promise<Purchase> {
  const remembered = await deps.purchases.ordersWith(deps.shop, who.customerId, productId);
  const ids =
    remembered.kind === "known"
      ? remembered.orderIds
      : await readPurchases(deps, who.customerId, remembered.generation, productId);
  if (!ids.length) return { kind: "none" };
  let reviewed = false;
  for (let i = 0; i < ids.length; i += 20) {
    const batch = await deps.client.findOrdersBatch({
      orderIds: [...new Set(ids.slice(i, i + 20))],
      userId: who.userId,
      ...(who.email ? { email: who.email } : {}),
    });
    // Newest order first, as Shopify listed them.
    const byId = new Map(batch.orders.map((o) => [o.orderId, o]));
    for (const id of ids.slice(i, i + 20)) {
      const order = byId.get(id);
      const item = order?.products.find((p) => p.sku === productId);
      if (!order || !item) continue;
      if (item.active) return { kind: "open", orderId: order.orderId, verificationTokenId: order.verificationTokenId };
      reviewed = true;
    }
  }
  return reviewed ? { kind: "reviewed" } : { kind: "none" };
}

/** The buyer's orders holding each product, read from Shopify and remembered; those holding `productId`. */
async function readPurchases(
  deps: { gql: () => Promise<AdminGraphql>; orderIdSource: "id" | "name"; purchases: PurchaseMemory; shop: string },
  customerId: string,
  generation: string,
  productId: string,
): Promise<string[]> {
  const gql = await deps.gql();
  const byProduct = new Map<string, string[]>();
  let after: string | null = null;
  for (let page = 0; page < PURCHASE_PAGES; page++) {
    const { orders, next } = await readCustomerOrders(gql, customerId, { after });
    for (const o of orders) {
      if (o.cancelled) continue;
      const id = serviceOrderId(o, deps.orderIdSource);
      const holds = [...new Set(o.lines.map((l) => l.productId))];
      for (const line of o.moreLines ? [...holds, ANY_PRODUCT] : holds)
        if (line !== null) byProduct.set(line, [...(byProduct.get(line) ?? []), id]);
    }
    if (!next) break;
    after = next;
  }
  await deps.purchases.remember(deps.shop, customerId, generation, byProduct);
  return [...new Set([...(byProduct.get(productId) ?? []), ...(byProduct.get(ANY_PRODUCT) ?? [])])];
}
