import type { JobServices } from "../jobs";
import { parseSettings, type ShopSettings } from "../settings";
import { fetchPrimaryDomain, isAddressRefused } from "../shopify";
import { canSyncShop } from "./can-sync";

// The shop a sync job works for, or null when it must not work for it: unknown, uninstalled (its
// queued work stops) or not connected to the service (nothing to send to).
export interface SyncShop {
  id: string;
  domain: string;
  settings: ShopSettings;
  primaryDomain: string;
}

export type SyncShopDeps = Pick<JobServices, "cachedShop" | "forgetShop" | "adminFor" | "shops">;

export async function syncShop(ctx: SyncShopDeps, domain: string): Promise<SyncShop | null> {
  const shop = await ctx.cachedShop(domain);
  if (!shop || !canSyncShop(shop)) return null;
  let primaryDomain = shop.primaryDomain;
  if (!primaryDomain) {
    // Read once and kept: product URLs are built on it. Without an Admin API session (tests, a
    // shop mid-install) the myshopify domain still gives working URLs.
    primaryDomain = await ctx
      .adminFor(shop.domain)
      .then((gql) => fetchPrimaryDomain(gql))
      .catch((error: unknown) => {
        // Refused (IP allowlist): the job parks instead of sending URLs on the wrong domain.
        if (isAddressRefused(error)) throw error;
        return null;
      });
    if (primaryDomain) {
      await ctx.shops.setPrimaryDomain(shop.domain, primaryDomain);
      ctx.forgetShop(shop.domain);
    } else primaryDomain = `https://${shop.domain}`;
  }
  return { id: shop.id, domain: shop.domain, settings: parseSettings(shop.settings), primaryDomain };
}
