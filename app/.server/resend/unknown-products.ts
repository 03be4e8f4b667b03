import type { Db } from "../db";
import type { Queues } from "../queues";
import { NEVER_ACCEPTED, type PendingChanges, requestProductFetch } from "../catalog";
import { observeResend } from "../metrics";
import type { ResendLedger } from "./resend-ledger";

// Products the service says it does not know although the mirror records them as accepted (a
// review in the feed without its product, see docs/reviews-service.md "When the service forgets"):
// each one's accepted hash is forgotten and the product is read from Shopify and staged again, the
// path a refused product's retry takes, so the next catalog batch carries it. One resend per
// product per window; a product denied again inside it is counted and left alone.

export interface UnknownProductsDeps {
  db: Db;
  queues: Queues;
  pending: PendingChanges;
  ledger: ResendLedger;
  windowMs: number;
}

export interface UnknownProductsOutcome {
  /** Product ids asked for again. */
  resent: string[];
  /** Product ids already sent again inside the window: reported, not sent. */
  denied: string[];
  /** SKUs this app never had accepted: not its to send. */
  notOurs: string[];
}

export async function resendUnknownProducts(
  deps: UnknownProductsDeps,
  shop: { id: string; domain: string },
  skus: readonly string[],
): Promise<UnknownProductsOutcome> {
  const wanted = [...new Set(skus)];
  if (!wanted.length) return { resent: [], denied: [], notOurs: [] };
  const rows = await deps.db.productMirror.findMany({
    where: { shopId: shop.id, sku: { in: wanted }, acceptedAt: { not: null } },
    select: { productId: true, sku: true },
  });
  const ours = new Set(rows.map((r) => r.sku));
  const resent: string[] = [];
  const denied: string[] = [];
  for (const row of rows) {
    if (await deps.ledger.claim(shop.id, "product", row.productId, deps.windowMs)) resent.push(row.productId);
    else denied.push(row.productId);
  }
  if (resent.length) {
    await deps.db.productMirror.updateMany({
      where: { shopId: shop.id, productId: { in: resent } },
      data: { payloadHash: null },
    });
    await deps.pending.rememberAccepted(shop.id, new Map(resent.map((id) => [id, NEVER_ACCEPTED])));
    await requestProductFetch(deps, shop, resent);
  }
  if (resent.length || denied.length)
    await deps.ledger.record(shop.id, { products: resent.length, denied: denied.length });
  observeResend("product", "resent", resent.length);
  observeResend("product", "denied", denied.length);
  return { resent, denied, notOurs: wanted.filter((sku) => !ours.has(sku)) };
}
