import { groupCommit, groupOf, type Db } from "../db";
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

type Row = NonNullable<Awaited<ReturnType<Db["orderState"]["findUnique"]>>>;
type Key = { shopId: string; orderId: string };
type Save = Key & { data: Partial<Omit<Row, "shopId" | "orderId">> };

function toState(row: Row): OrderState {
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
}

const where = (keys: Key[]) => {
  const byShop = new Map<string, string[]>();
  for (const k of keys) byShop.set(k.shopId, [...(byShop.get(k.shopId) ?? []), k.orderId]);
  return { OR: [...byShop].map(([shopId, orderIds]) => ({ shopId, orderId: { in: [...new Set(orderIds)] } })) };
};

// The order path of a worker reads and writes order states in groups (db/group-commit.ts): each
// order's work still runs under its own lock, reads its row after taking it and has its write
// committed before letting it go, so a group never holds two steps of one order.
const groupedReads = (db: Db) =>
  groupOf(db, "order-state reads", () =>
    groupCommit(async (keys: Key[]) => {
      const rows = await db.orderState.findMany({ where: where(keys) });
      const found = new Map(rows.map((r) => [`${r.shopId}\u0000${r.orderId}`, r]));
      return keys.map((k) => {
        const row = found.get(`${k.shopId}\u0000${k.orderId}`);
        return row ? toState(row) : null;
      });
    }),
  );

const groupedSaves = (db: Db) =>
  groupOf(db, "order-state saves", () => {
    const upsert = (s: Save) =>
      db.orderState.upsert({
        where: { shopId_orderId: { shopId: s.shopId, orderId: s.orderId } },
        create: {
          shopId: s.shopId,
          orderId: s.orderId,
          fulfillmentEvents: serializeTracking(emptyTracking()),
          ...s.data,
        },
        update: s.data,
      });
    return groupCommit(
      async (saves: Save[]) => {
        // Nearly every save is of a row that exists (one insert per order, then an update per
        // change), and a plain update costs Prisma about half of an upsert's work; the group's
        // updates commit together, then the rows that were missing are created together.
        const counts = await db.$transaction(
          saves.map((s) => db.orderState.updateMany({ where: { shopId: s.shopId, orderId: s.orderId }, data: s.data })),
        );
        const missing = saves.filter((_, i) => counts[i]!.count === 0);
        if (missing.length) await db.$transaction(missing.map(upsert));
        return saves.map(() => undefined);
      },
      { single: async (s) => void (await upsert(s)) },
    );
  });

/** The order-state groups of this database client in this process, for tests and benchmarks. */
export function orderStateGroupStats(db: Db) {
  return { reads: groupedReads(db).stats(), saves: groupedSaves(db).stats() };
}

export function createOrderStateRepository(db: Db) {
  return {
    /** The order's state; concurrent reads of the process go to the database as one query. */
    get(shopId: string, orderId: string): Promise<OrderState | null> {
      return groupedReads(db)({ shopId, orderId });
    },

    /** Creates or updates the order's row with the fields given; the others keep their value. */
    async save(shopId: string, orderId: string, patch: OrderStatePatch): Promise<void> {
      const { tracking, ...fields } = patch;
      const data = { ...fields, ...(tracking ? { fulfillmentEvents: serializeTracking(tracking) } : {}) };
      await groupedSaves(db)({ shopId, orderId, data });
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
