import type { Logger } from "pino";
import type { Db } from "../db";
import type { Queues } from "../queues";
import type { ScheduleConfig } from "../activity";
import { startFirstSyncs } from "./connect-shop";
import { resumeParkedForMerchant } from "../shops";
import { shopTokenStates } from "../shopify";

// The merchant opened the app and the library stored a fresh offline pair: a shop parked because
// Shopify refused its token is "ok" again, and what stopped meanwhile runs again: a full catalog
// sync, the orders backfill and the ratings back-sync (each skips what the service already holds),
// and the jobs parked meanwhile (webhooks, product reads, consent reads) run now, as they would have.

export async function resumeAfterReauth(
  ctx: { db: Db; queues: Queues; log: Logger; config: ScheduleConfig },
  domain: string,
): Promise<boolean> {
  const left = await shopTokenStates(ctx.db).clear(domain);
  // Also when the mark was gone already (undone by a process that saw the new session first).
  const woken = await resumeParkedForMerchant(ctx, domain);
  if (left !== "needs-merchant") return false;
  const shop = await ctx.db.shop.findUnique({
    where: { domain },
    select: { id: true, customerKey: true, clientId: true, clientSecretEncrypted: true },
  });
  const connected = Boolean(shop?.customerKey && shop.clientId && shop.clientSecretEncrypted);
  ctx.log.info(
    { shop: domain, connected, woken },
    "the merchant opened the app: Shopify token restored, paused work resumes",
  );
  if (!shop || !connected) return true;
  const started = await startFirstSyncs({ db: ctx.db, queues: ctx.queues, config: ctx.config }, shop.id);
  for (const [what, r] of Object.entries(started))
    if (r instanceof Error) ctx.log.warn({ shop: domain, what, err: r.message }, "resumed work not queued");
  return true;
}
