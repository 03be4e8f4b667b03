import type { Db } from "../db";
import type { CustomerLookup, IndexRow } from "./review-customer";

// The customer → reviews index (CustomerReview): ids, the product and the submission date, nothing
// a person could be recognised by. Filled by the back-sync (index-customer-reviews.ts), read by the
// customer details block, emptied per customer by customers/redact and per shop by shop/redact.

// SQLite allows a few hundred bound parameters per statement in some builds: ask in slices.
const IN_SLICE = 400;

export function createCustomerReviewIndex(db: Db) {
  return {
    /** What the orders mirror says about these orders and customers. */
    async lookup(shopId: string, keys: { orderIds: string[]; userIds: string[] }): Promise<CustomerLookup> {
      const byOrder = new Map<string, string>();
      const known = new Set<string>();
      for (let i = 0; i < keys.orderIds.length; i += IN_SLICE) {
        const slice = keys.orderIds.slice(i, i + IN_SLICE);
        const rows = await db.orderState.findMany({
          where: { shopId, customerId: { not: null }, OR: [{ orderId: { in: slice } }, { name: { in: slice } }] },
          select: { orderId: true, name: true, customerId: true },
        });
        for (const r of rows) {
          byOrder.set(r.orderId, r.customerId!);
          if (r.name) byOrder.set(r.name, r.customerId!);
        }
      }
      for (let i = 0; i < keys.userIds.length; i += IN_SLICE) {
        const rows = await db.orderState.findMany({
          where: { shopId, customerId: { in: keys.userIds.slice(i, i + IN_SLICE) } },
          select: { customerId: true },
          distinct: ["customerId"],
        });
        for (const r of rows) known.add(r.customerId!);
      }
      return { byOrder, known };
    },

    /** Adds or corrects rows (a review is one customer's: the newest resolution wins). */
    async record(shopId: string, rows: readonly IndexRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db.$transaction(
        rows.map((r) =>
          db.customerReview.upsert({
            where: { shopId_reviewId: { shopId, reviewId: r.reviewId } },
            create: { shopId, ...r },
            update: { customerId: r.customerId, sku: r.sku, reviewedAt: r.reviewedAt },
          }),
        ),
      );
    },

    /** One page of a customer's reviews, newest submission first; `more` when another page follows. */
    async page(
      shopId: string,
      customerId: string,
      at: { offset: number; limit: number },
    ): Promise<{ rows: IndexRow[]; more: boolean }> {
      const found = await db.customerReview.findMany({
        where: { shopId, customerId },
        orderBy: [{ reviewedAt: "desc" }, { reviewId: "desc" }],
        skip: at.offset,
        take: at.limit + 1,
        select: { customerId: true, reviewId: true, sku: true, reviewedAt: true },
      });
      return { rows: found.slice(0, at.limit), more: found.length > at.limit };
    },

    /** customers/redact. */
    async deleteCustomer(shopId: string, customerId: string): Promise<number> {
      return (await db.customerReview.deleteMany({ where: { shopId, customerId } })).count;
    },

    /** shop/redact. */
    async forgetShop(shopId: string): Promise<number> {
      return (await db.customerReview.deleteMany({ where: { shopId } })).count;
    },
  };
}

export type CustomerReviewIndex = ReturnType<typeof createCustomerReviewIndex>;
