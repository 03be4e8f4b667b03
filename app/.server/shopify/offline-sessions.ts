import type { Db } from "../db";
import { open, seal } from "../crypto";
import type { TokenPair } from "./token-endpoint";

// The shop's offline session row (the library's Session table) as the token provider reads and
// writes it: the refresh token sealed at rest, as SealedSessionStorage stores it for the library.

export class NoOfflineSessionError extends Error {
  constructor(readonly shop: string) {
    super(`No offline session for ${shop}: the app must be installed (or reinstalled) on the shop`);
    this.name = "NoOfflineSessionError";
  }
}

export interface OfflineSession {
  id: string;
  shop: string;
  accessToken: string;
  /** Null: a non-expiring token (installed before expiring tokens). */
  expires: Date | null;
  /** As stored (sealed): what a conditional update compares. */
  sealedRefreshToken: string | null;
  refreshTokenExpires: Date | null;
}

export function offlineSessionId(shop: string): string {
  return `offline_${shop}`;
}

export function offlineSessions(db: Db, key: Buffer) {
  return {
    async read(shop: string): Promise<OfflineSession> {
      const row = await db.session.findFirst({
        where: { shop, isOnline: false },
        select: {
          id: true,
          shop: true,
          accessToken: true,
          expires: true,
          refreshToken: true,
          refreshTokenExpires: true,
        },
      });
      if (!row) throw new NoOfflineSessionError(shop);
      return {
        id: row.id,
        shop: row.shop,
        accessToken: row.accessToken,
        expires: row.expires,
        sealedRefreshToken: row.refreshToken,
        refreshTokenExpires: row.refreshTokenExpires,
      };
    },

    openRefreshToken(session: OfflineSession): string | null {
      return session.sealedRefreshToken ? open(session.sealedRefreshToken, key) : null;
    },

    /**
     * Stores a new pair only if the row still holds what `from` read (the refresh token used, or
     * for a migration the non-expiring token): true when it did. One update: the pair is never
     * half written.
     */
    async replace(from: OfflineSession, pair: TokenPair): Promise<boolean> {
      const { count } = await db.session.updateMany({
        where: {
          id: from.id,
          accessToken: from.accessToken,
          refreshToken: from.sealedRefreshToken,
        },
        data: {
          accessToken: pair.accessToken,
          expires: pair.expires,
          refreshToken: seal(pair.refreshToken, key),
          refreshTokenExpires: pair.refreshTokenExpires,
          ...(pair.scope ? { scope: pair.scope } : {}),
        },
      });
      return count === 1;
    },
  };
}

export type OfflineSessions = ReturnType<typeof offlineSessions>;

/** The columns of a Session row holding `pair`, the refresh token sealed (installs, test seeds). */
export function sessionColumns(pair: Omit<TokenPair, "scope">, key: Buffer) {
  return {
    accessToken: pair.accessToken,
    expires: pair.expires,
    refreshToken: seal(pair.refreshToken, key),
    refreshTokenExpires: pair.refreshTokenExpires,
  };
}
