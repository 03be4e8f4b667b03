import type { Db } from "../db";
import type { OrderLink } from "./product-review.mapper";

// The Shopify order and customer of the orders the service names on reviews. The service documents
// no customer id on a review, only `orderId` (with includeOrderData): the order id the app sent it,
// which is Shopify's legacy order id, or the order's name when the shop keys orders by name
// (`orders.orderIdSource`). The app's orders mirror (OrderState) holds both, with the customer.

export type OrderLinks = (shopId: string, serviceOrderIds: readonly string[]) => Promise<Map<string, OrderLink>>;

export function orderLinksFromMirror(db: Db): OrderLinks {
  return async (shopId, serviceOrderIds) => {
    const ids = [...new Set(serviceOrderIds.filter(Boolean))];
    const found = new Map<string, OrderLink>();
    if (ids.length === 0) return found;
    const rows = await db.orderState.findMany({
      where: { shopId, OR: [{ orderId: { in: ids } }, { name: { in: ids } }] },
      select: { orderId: true, name: true, customerId: true },
    });
    for (const r of rows) {
      const link = { orderId: r.orderId, customerId: r.customerId };
      if (ids.includes(r.orderId)) found.set(r.orderId, link);
      if (r.name && ids.includes(r.name) && !found.has(r.name)) found.set(r.name, link);
    }
    return found;
  };
}
