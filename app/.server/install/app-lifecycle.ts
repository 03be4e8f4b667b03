import { z } from "zod";
import { GiveUp, type JobServices, type TopicDelivery } from "../jobs";
import { createBackSyncState } from "../backsync";

/** What the app's own lifecycle topics are given. */
export type LifecycleDeps = Pick<JobServices, "db" | "shops">;

// app/uninstalled can arrive twice and after the app is gone: both cases are a no-op the second time.
// The shop's data stays until shop/redact (48 hours later) removes it; its sessions go now, and
// every processor checks the install state before it works for a shop, so queued work stops.
export async function appUninstalled(ctx: LifecycleDeps, delivery: TopicDelivery): Promise<void> {
  await ctx.shops.markUninstalled(delivery.shop);
  await ctx.db.session.deleteMany({ where: { shop: delivery.shop } });
  // The rating metafields the back-sync wrote may leave with the app: a reinstall writes them again.
  const shop = await ctx.db.shop.findUnique({ where: { domain: delivery.shop }, select: { id: true } });
  if (shop) await createBackSyncState(ctx.db).forgetWrites(shop.id);
}

const scopesUpdate = z.object({ current: z.array(z.string()) });

// As the template does: the sessions carry the scopes now granted.
export async function appScopesUpdate(ctx: LifecycleDeps, delivery: TopicDelivery): Promise<void> {
  const parsed = scopesUpdate.safeParse(delivery.payload);
  if (!parsed.success) throw new GiveUp("app/scopes_update payload without `current`");
  await ctx.db.session.updateMany({ where: { shop: delivery.shop }, data: { scope: parsed.data.current.join(",") } });
}
