import { keyFrom } from "../../app/.server/crypto/secret-box";
import type { Db } from "../../app/.server/db/client";
import { offlineSessionId, sessionColumns } from "../../app/.server/shopify/offline-sessions";
import type { OfflineSessionFields } from "../../sandbox/simulated-store/tokens";

// A shop's offline session as an install stores it: an expiring pair from the simulated store,
// the refresh token sealed with the test's ENCRYPTION_KEY (as the app's session storage seals it).
// Tests that open the embedded admin use ADMIN_SESSION_LIFETIME_MS (for the seeded pair and the
// store's refreshed ones): on every admin request the library exchanges a token that ends within
// 5 minutes, at https://{shop}, which no test reaches.

/** Shopify's hour: longer than the library's 5-minute window before an admin request exchanges it. */
export const ADMIN_SESSION_LIFETIME_MS = 3_600_000;

export async function seedOfflineSession(
  db: Db,
  store: { shop: string; installSession(lifetimeMs?: number): OfflineSessionFields },
  opts: { shop?: string; scope?: string; encryptionKey?: string; lifetimeMs?: number } = {},
): Promise<OfflineSessionFields> {
  const shop = opts.shop ?? store.shop;
  const fields = store.installSession(opts.lifetimeMs);
  const key = keyFrom(opts.encryptionKey ?? process.env.ENCRYPTION_KEY ?? "");
  await db.session.create({
    data: {
      id: offlineSessionId(shop),
      shop,
      state: "",
      isOnline: false,
      scope: opts.scope ?? fields.scope,
      ...sessionColumns(fields, key),
    },
  });
  return fields;
}

/** A session from before expiring tokens (non-expiring token, no refresh token): migration tests only. */
export async function seedNonExpiringSession(db: Db, shop: string, accessToken: string, scope?: string): Promise<void> {
  await db.session.create({
    data: { id: offlineSessionId(shop), shop, state: "", isOnline: false, scope, accessToken },
  });
}

/** An install for tests that never call Shopify: a made-up expiring pair, not issued by any store. */
export function madeUpInstall(shop: string, accessToken = "shpat_made_up") {
  return {
    shop,
    installSession: (): OfflineSessionFields => ({
      accessToken,
      expires: new Date(Date.now() + 3_600_000),
      refreshToken: `shprt_${accessToken}`,
      refreshTokenExpires: new Date(Date.now() + 90 * 86_400_000),
      scope: "read_products",
    }),
  };
}
