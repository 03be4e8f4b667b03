import type { Db } from "../db";
import type { Queues } from "../queues";
import { startSync } from "../sync";
import { observeResend } from "../metrics";
import type { ResendLedger } from "./resend-ledger";

// An order the service answers 404 for on an update although the app sent it (a reset account,
// lost data): the status update cannot land, so the whole order goes again as a version-2 create.
// The app keeps no buyer data to rebuild it from, so what was sent is forgotten and an orders
// reconciliation from the order's creation reads it from Shopify and sends it (the others it
// reads are unchanged and not sent). Once per order per window: a 404 inside the window is
// reported, and the caller gives up on the update.

export interface UnknownOrderDeps {
  db: Db;
  queues: Queues;
  ledger: ResendLedger;
  windowMs: number;
}

export type UnknownOrderOutcome = { kind: "resent"; runId: string } | { kind: "denied" };

export async function resendUnknownOrder(
  deps: UnknownOrderDeps,
  shop: { id: string },
  orderId: string,
  createdAt: string | null | undefined,
): Promise<UnknownOrderOutcome> {
  if (!(await deps.ledger.claim(shop.id, "order", orderId, deps.windowMs))) {
    await deps.ledger.record(shop.id, { denied: 1 });
    observeResend("order", "denied");
    return { kind: "denied" };
  }
  await deps.db.orderState.updateMany({
    where: { shopId: shop.id, orderId },
    data: { fingerprint: null, sentUpdatedAt: null, sentVersion: null, sentAt: null },
  });
  const created = createdAt ? new Date(createdAt) : null;
  // A minute early: Shopify's created_at and the bulk query's filter round differently.
  const since = created && !Number.isNaN(created.getTime()) ? new Date(created.getTime() - 60_000) : undefined;
  const { run } = await startSync(deps, shop.id, "orders", since);
  await deps.ledger.record(shop.id, { orders: 1 });
  observeResend("order", "resent");
  return { kind: "resent", runId: run.id };
}
