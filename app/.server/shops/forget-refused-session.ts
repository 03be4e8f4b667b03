import type { Db } from "../db";
import { offlineSessionId, shopTokenStates, type ShopTokenState } from "../shopify";

// The library trusts a stored offline session that has no expiry: a non-expiring token Shopify
// refuses (from 2027-01-01, or revoked) would stay in place however often the merchant opens the
// app, and the shop would stay parked. While the shop waits for its merchant, the stored session
// is the refused one, so it is forgotten: the next authentication exchanges the merchant's session
// token for a fresh expiring pair, and afterAuth resumes the paused work.

/**
 * True when the refused offline session was deleted (authenticate again to get a new one). `known`:
 * the shop's token state when the caller has read it already.
 */
export async function forgetRefusedOfflineSession(
  db: Db,
  domain: string,
  known?: ShopTokenState | null,
): Promise<boolean> {
  const state = known === undefined ? await shopTokenStates(db).get(domain) : known;
  if (state?.state !== "needs-merchant") return false;
  const { count } = await db.session.deleteMany({ where: { id: offlineSessionId(domain) } });
  return count > 0;
}
