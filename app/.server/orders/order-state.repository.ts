import type { Db } from "../db";
import { legacyVersion } from "../mapping";
import { emptyTracking, parseTracking, serializeTracking, type OrderTracking } from "./order-tracking";

// What the service was last told about one order of one shop, and what the connector knows of its
// delivery since. No buyer contact data: ids, times, a hash, statuses (see order-tracking.ts for
// what the tracking JSON holds).

/** OrderState.status besides the service statuses: kept out of the service by the shop's settings. */
export const EXCLUDED_STATUS = "excluded";

export interface OrderState {
  orderId: string;
  /** Shopify's order name (#1037): what a person is shown; null for orders saved before it was kept. */
  name: string | null;
  /** Shopify customer id (for customers/redact and data_request); null for guests. */
  customerId: string | null;
  /** Shopify updated_at of the newest order payload applied (sent, unchanged or excluded). */
  sentUpdatedAt: Date | null;
  /**
   * The version (mapping/change-version.ts) of that payload: what an arriving one is compared with.
   * Rows saved before it was kept read as their sentUpdatedAt.
   */
  sentVersion: string | null;
  /** orderFingerprint of the body the service holds; null when it holds something else since (an update). */
  fingerprint: string | null;
  /** The service status last sent, or EXCLUDED_STATUS. */
  status: string | null;
  /** When "delivered after N days" applies, while the order waits for it. */
  deliveryDueAt: Date | null;
  tracking: OrderTracking;
  error: string | null;
  errorAt: Date | null;
  sentAt: Date | null;
}

export type OrderStatePatch = Partial<Omit<OrderState, "orderId">>;

export function createOrderStateRepository(db: Db) {
  return {
    async get(shopId: string, orderId: string): Promise<OrderState | null> {
      const row = await db.orderState.findUnique({ where: { shopId_orderId: { shopId, orderId } } });
      if (!row) return null;
      return {
        orderId: row.orderId,
        name: row.name,
        customerId: row.customerId,
        sentUpdatedAt: row.sentUpdatedAt,
        sentVersion: row.sentVersion ?? legacyVersion(row.sentUpdatedAt?.getTime()) ?? null,
        fingerprint: row.fingerprint,
        status: row.status,
        deliveryDueAt: row.deliveryDueAt,
        tracking: parseTracking(row.fulfillmentEvents),
        error: row.error,
        errorAt: row.errorAt,
        sentAt: row.sentAt,
      };
    },

    /** Creates or updates the order's row with the fields given; the others keep their value. */
    async save(shopId: string, orderId: string, patch: OrderStatePatch): Promise<void> {
      const { tracking, ...fields } = patch;
      const data = { ...fields, ...(tracking ? { fulfillmentEvents: serializeTracking(tracking) } : {}) };
      // Nearly every save is of a row that exists (one insert per order, then an update per
      // change), and a plain update costs Prisma about half of an upsert's work.
      const { count } = await db.orderState.updateMany({ where: { shopId, orderId }, data });
      if (count > 0) return;
      await db.orderState.upsert({
        where: { shopId_orderId: { shopId, orderId } },
        create: { shopId, orderId, fulfillmentEvents: serializeTracking(emptyTracking()), ...data },
        update: data,
      });
    },

    /**
     * The names of these orders (by Shopify order id) that the app has kept, in one query: ids it
     * has no name for are absent, and the caller shows them as they are.
     */
    async names(shopId: string, orderIds: readonly string[]): Promise<Map<string, string>> {
      const wanted = [...new Set(orderIds)];
      if (wanted.length === 0) return new Map();
      const rows = await db.orderState.findMany({
        where: { shopId, orderId: { in: wanted }, name: { not: null } },
        select: { orderId: true, name: true },
      });
      return new Map(rows.map((r) => [r.orderId, r.name!]));
    },

    async recordError(shopId: string, orderId: string, error: string): Promise<void> {
      await this.save(shopId, orderId, { error, errorAt: new Date() });
    },
  };
}

export type OrderStateRepository = ReturnType<typeof createOrderStateRepository>;
