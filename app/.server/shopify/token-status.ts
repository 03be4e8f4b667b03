import type { Db } from "../db";
import { shopTokenStates, type TokenState } from "./token-state";

// What an operator is told about a shop's offline token: its kind, when the access token and the
// refresh token end, and its state (see shopify/token-state.ts).

export interface OfflineTokenStatus {
  kind: "expiring" | "non-expiring" | "none";
  accessTokenExpires: Date | null;
  refreshTokenExpires: Date | null;
  state: TokenState;
  reason: string | null;
  since: Date | null;
}

export async function offlineTokenStatus(db: Db, domain: string): Promise<OfflineTokenStatus> {
  const session = await db.session.findFirst({
    where: { shop: domain, isOnline: false },
    select: { expires: true, refreshToken: true, refreshTokenExpires: true },
  });
  const state = await shopTokenStates(db).get(domain);
  return {
    kind: !session ? "none" : session.expires || session.refreshToken ? "expiring" : "non-expiring",
    accessTokenExpires: session?.expires ?? null,
    refreshTokenExpires: session?.refreshTokenExpires ?? null,
    state: state?.state ?? "ok",
    reason: state?.reason ?? null,
    since: state?.at ?? null,
  };
}

/** One line: "expiring, access token until ..., ok" or "... needs the merchant to open the app (...)". */
export function describeTokenStatus(s: OfflineTokenStatus, now = Date.now()): string {
  if (s.kind === "none") return "none (the app is not installed: no offline session)";
  const kind =
    s.kind === "non-expiring"
      ? "non-expiring (refused by Shopify from 2027-01-01; the worker migrates it within TOKEN_MIGRATION_INTERVAL_MS, or `npm run cli -- tokens migrate` now)"
      : `expiring, access token ${s.accessTokenExpires && s.accessTokenExpires.getTime() > now ? "until" : "expired at"} ${s.accessTokenExpires?.toISOString() ?? "?"}` +
        (s.refreshTokenExpires ? `, refresh token until ${s.refreshTokenExpires.toISOString()}` : "");
  const since = s.since ? ` since ${s.since.toISOString()}` : "";
  const state =
    s.state === "needs-merchant"
      ? `NEEDS THE MERCHANT to open the app${since} (Shopify refused the token: ${s.reason ?? "refused"}); no Admin API or token call for it from any process until then, its jobs wait and run after`
      : s.state === "refresh-failing"
        ? `refreshing failed${since} (${s.reason ?? "?"}); retried with the next call`
        : "ok";
  return `${kind}; ${state}`;
}
