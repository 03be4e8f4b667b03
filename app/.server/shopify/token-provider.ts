import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { withRenewedLock } from "../queues";
import type { AccessTokenSource } from "./admin-graphql";
import { ShopifyReauthRequiredError, ShopifyRetryableError } from "./errors";
import type { OfflineSession, OfflineSessions } from "./offline-sessions";
import type { TokenEndpoint, TokenPair } from "./token-endpoint";

// The one place an offline access token comes from outside a merchant's request (workers, CLI, the
// app proxy's writes, back-sync, Flow). It hands out the stored token while it has more than
// `marginMs` left, refreshes it before that, and once more after a 401.
//
// Shopify rotates the refresh token on every use, so two processes refreshing one shop at once
// would each spend it. Hence: one refresh per shop at a time across processes (a Redis lock taken
// with SET NX PX and a token, released by compare, renewed while held), the row read again once the
// lock is ours (the previous holder may have refreshed already), and the new pair stored only if
// the row still holds the refresh token we used. A lost answer is retried with that same refresh
// token: Shopify keeps it usable until the new pair is first used.

export interface TokenProvider {
  /** A token with more than the margin left, refreshed first if needed. */
  tokenFor(shop: string): Promise<TokenGrant>;
  /** After Shopify answered 401 to `rejected`: a newer token (refreshing unless someone did). */
  renew(shop: string, rejected: string): Promise<TokenGrant>;
  /** What createAdminGraphql takes: the shop's token, remembered until it needs refreshing. */
  source(shop: string): AccessTokenSource;
}

export interface TokenGrant {
  accessToken: string;
  /** Null for a non-expiring token. */
  expires: Date | null;
}

export interface TokenProviderOptions {
  sessions: OfflineSessions;
  endpoint: TokenEndpoint;
  redis: Redis;
  /** REDIS_PREFIX. */
  prefix: string;
  marginMs: number;
  log: Logger;
  now?: () => number;
  /** Attempts of one refresh whose answer was lost, before the job's own retry takes over. */
  lostAnswerAttempts?: number;
  /** Between those attempts. */
  retryDelayMs?: number;
  /** Longest wait for another process's refresh of the same shop. */
  lockWaitMs?: number;
  /** What each refresh came to (metrics, the shop's token state). */
  observe?: (shop: string, outcome: RefreshOutcome, reason?: string) => Promise<void> | void;
  /**
   * Why the shop waits for its merchant (a refused refresh token), or null: then no refresh is
   * asked of Shopify, which would refuse it again.
   */
  parked?: (shop: string) => Promise<string | null>;
}

export type RefreshOutcome = "refreshed" | "lost-answer-retried" | "needs-merchant" | "failed";

// A non-expiring token has no expiry to watch: re-read now and then (a migration may replace it).
const NON_EXPIRING_REUSE_MS = 30_000;
const LOCK_TTL_MS = 10_000;

export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  const { sessions, endpoint, redis, marginMs, log } = options;
  const now = options.now ?? Date.now;
  const attempts = options.lostAnswerAttempts ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 250;
  const lockWaitMs = options.lockWaitMs ?? 45_000;
  // Callers of one process asking for one shop at once share one refresh.
  const inFlight = new Map<string, Promise<TokenGrant>>();

  const grant = (s: OfflineSession): TokenGrant => ({ accessToken: s.accessToken, expires: s.expires });
  const fresh = (s: OfflineSession) => s.expires === null || s.expires.getTime() - now() > marginMs;
  const alive = (s: OfflineSession) => s.expires === null || s.expires.getTime() > now();

  async function exchangeKeepingLostAnswers(shop: string, refreshToken: string): Promise<TokenPair> {
    for (let attempt = 1; ; attempt++) {
      try {
        const pair = await endpoint.refresh(shop, refreshToken);
        if (attempt > 1) await options.observe?.(shop, "lost-answer-retried");
        return pair;
      } catch (error) {
        if (!(error instanceof ShopifyRetryableError) || attempt >= attempts) throw error;
        log.warn(
          { shop, attempt, err: error.message },
          "token refresh answer lost; asking again with the same refresh token",
        );
        await new Promise((r) => setTimeout(r, retryDelayMs * attempt));
      }
    }
  }

  /** Refreshes unless the row moved past `stale` meanwhile; under the shop's lock. */
  async function refresh(shop: string, stale: string, force: boolean): Promise<TokenGrant> {
    const lockKey = `${options.prefix}:shopify-token-refresh:${shop}`;
    return withRenewedLock(
      redis,
      lockKey,
      async () => {
        const row = await sessions.read(shop);
        // Someone refreshed while we waited for the lock: a pair that new is the one to use.
        if (row.accessToken !== stale && alive(row)) return grant(row);
        const parkedFor = await options.parked?.(shop);
        if (parkedFor) {
          throw new ShopifyReauthRequiredError(
            `The shop's offline token was refused (${parkedFor}): the merchant must open the app`,
            { shop, reason: parkedFor },
          );
        }
        const refreshToken = sessions.openRefreshToken(row);
        if (!refreshToken) {
          if (row.expires === null && !force) return grant(row);
          throw new ShopifyReauthRequiredError(
            row.expires === null
              ? "Shopify refused the shop's non-expiring offline token"
              : "The shop's offline session has no refresh token",
            { shop, reason: row.expires === null ? "non-expiring-refused" : "no-refresh-token" },
          );
        }
        let pair: TokenPair;
        try {
          pair = await exchangeKeepingLostAnswers(shop, refreshToken);
        } catch (error) {
          const reauth = error instanceof ShopifyReauthRequiredError;
          await options.observe?.(
            shop,
            reauth ? "needs-merchant" : "failed",
            reauth ? error.reason : (error as Error).message,
          );
          throw error;
        }
        if (await sessions.replace(row, pair)) {
          await options.observe?.(shop, "refreshed");
          log.info({ shop, expires: pair.expires.toISOString() }, "offline access token refreshed");
          return { accessToken: pair.accessToken, expires: pair.expires };
        }
        // The row changed under us (the library refreshed in a merchant's request, or a reinstall):
        // ours stays unstored; the pair we hold is valid for this call.
        log.warn({ shop }, "offline session changed during a token refresh; keeping the stored pair");
        return { accessToken: pair.accessToken, expires: pair.expires };
      },
      {
        ttlMs: LOCK_TTL_MS,
        waitMs: lockWaitMs,
        timeoutError: () =>
          new ShopifyRetryableError("another process is still refreshing this shop's token", { shop }),
      },
    );
  }

  function shared(shop: string, run: () => Promise<TokenGrant>): Promise<TokenGrant> {
    const running = inFlight.get(shop);
    if (running) return running;
    const p = run().finally(() => inFlight.delete(shop));
    inFlight.set(shop, p);
    return p;
  }

  const provider: TokenProvider = {
    async tokenFor(shop) {
      const row = await sessions.read(shop);
      if (fresh(row)) return grant(row);
      return shared(shop, () => refresh(shop, row.accessToken, false));
    },

    async renew(shop, rejected) {
      const row = await sessions.read(shop);
      if (row.accessToken !== rejected && alive(row)) return grant(row);
      return shared(shop, () => refresh(shop, rejected, true));
    },

    source(shop) {
      let held: { grant: TokenGrant; until: number } | null = null;
      const keep = (g: TokenGrant) => {
        held = { grant: g, until: g.expires ? g.expires.getTime() - marginMs : now() + NON_EXPIRING_REUSE_MS };
        return g.accessToken;
      };
      return {
        async current() {
          if (held && held.until > now()) return held.grant.accessToken;
          return keep(await provider.tokenFor(shop));
        },
        async renew(rejected) {
          held = null;
          return keep(await provider.renew(shop, rejected));
        },
      };
    },
  };
  return provider;
}
