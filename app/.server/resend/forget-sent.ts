import type { Db } from "../db";
import { RESEND_REASON } from "../../shared/resend-reason";

// What this database remembers having sent lets the app skip what the other side already holds:
// unchanged products (the mirror's hashes), unchanged orders (their fingerprints), unchanged
// rating metafields (their digests). When the other side no longer holds it (another account, a
// reset service, a fresh local emulator and store), that memory makes the app send nothing: the
// memory goes, and the next full syncs send everything once. Payloads are kept (orders read the
// product data from them until the catalog is sent again), and so is the customers' consent.

export { RESEND_REASON };

export interface Forgotten {
  products: number;
  orders: number;
  ratings: number;
  /** Syncs that were under way for what is forgotten, ended as cancelled. */
  runs: number;
}

export async function forgetWhatWasSent(db: Db, shopId: string): Promise<Forgotten> {
  const [products, orders, ratings, , runs] = await db.$transaction([
    db.productMirror.updateMany({ where: { shopId, payloadHash: { not: null } }, data: { payloadHash: null } }),
    db.orderState.updateMany({
      where: { shopId },
      data: { fingerprint: null, sentUpdatedAt: null, sentVersion: null, status: null, sentAt: null },
    }),
    db.ratingDigest.deleteMany({ where: { shopId } }),
    db.backSyncState.deleteMany({ where: { shopId } }),
    db.syncRun.updateMany({
      where: { shopId, status: { in: ["pending", "running", "reading"] } },
      data: { status: "cancelled", finishedAt: new Date(), error: RESEND_REASON },
    }),
  ]);
  return { products: products.count, orders: orders.count, ratings: ratings.count, runs: runs.count };
}
