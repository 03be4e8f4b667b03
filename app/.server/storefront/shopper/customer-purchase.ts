import type { ReviewsStorefrontApi } from "../../reviews";
import type { AdminGraphql } from "../../shopify";
import { readCustomerOrders } from "../order-reviews/customer-orders";
import { serviceOrderId } from "../order-reviews/order-review-status-page";

// Whether a logged-in customer bought a product, and what the service says of it in their orders:
// one still open for a review (its order and verification token: a review sent with them is tied
// to that order and marked a verified purchase), all of them reviewed, or no order of theirs holds
// it. Shopify's orders (newest first, a bounded number of pages) say which orders hold the product;
// the service's `orders/find-batch` says which of those it knows and whether each was reviewed.

/** Pages of 20 orders read at most: a buyer's recent history, bounded for a shopper's request. */
export const PURCHASE_PAGES = 5;

export type Purchase =
  { kind: "open"; orderId: string; verificationTokenId: string } | { kind: "reviewed" } | { kind: "none" };

export async function customerPurchase(
  deps: { gql: AdminGraphql; client: Pick<ReviewsStorefrontApi, "findOrdersBatch">; orderIdSource: "id" | "name" },
  who: { customerId: string; userId: string; email?: string },
  productId: string,
): Promise<Purchase> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < PURCHASE_PAGES; page++) {
    const { orders, next } = await readCustomerOrders(deps.gql, who.customerId, { after });
    for (const o of orders)
      if (!o.cancelled && o.lines.some((l) => l.productId === productId))
        ids.push(serviceOrderId(o, deps.orderIdSource));
    if (!next) break;
    after = next;
  }
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
