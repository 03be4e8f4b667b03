import { z } from "zod";
import type { TopicHandler } from "./registry";
import { PermanentJobError } from "./errors";
import { createBackSyncState } from "../../app/.server/backsync/backsync-state.repository";

// app/uninstalled can arrive twice and after the app is gone: both cases are a no-op the second time.
// The shop's data stays until shop/redact (48 hours later) removes it; its sessions go now, and
// every processor checks the install state before it works for a shop, so queued work stops.
export const appUninstalled: TopicHandler = async (delivery, ctx) => {
  await ctx.shops.markUninstalled(delivery.shop);
  await ctx.db.session.deleteMany({ where: { shop: delivery.shop } });
  // The rating metafields the back-sync wrote may leave with the app: a reinstall writes them again.
  const shop = await ctx.db.shop.findUnique({ where: { domain: delivery.shop }, select: { id: true } });
  if (shop) await createBackSyncState(ctx.db).forgetWrites(shop.id);
};

const scopesUpdate = z.object({ current: z.array(z.string()) });

// As the template does: the sessions carry the scopes now granted.
export const appScopesUpdate: TopicHandler = async (delivery, ctx) => {
  const parsed = scopesUpdate.safeParse(delivery.payload);
  if (!parsed.success) throw new PermanentJobError("app/scopes_update payload without `current`");
  await ctx.db.session.updateMany({ where: { shop: delivery.shop }, data: { scope: parsed.data.current.join(",") } });
};
