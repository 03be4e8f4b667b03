import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { withRenewedLock } from "../queues";
import type { AccessTokenSource } from "./admin-graphql";
import { ShopWaitsForMerchantError, ShopifyReauthRequiredError, ShopifyRetryableError } from "./errors";
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
//
// A shop that waits for its merchant (Shopify refused its token) gets no call at all, from any
// process: every hand-out of a token, even one held in memory, asks `parked` first and throws
// ShopWaitsForMerchantError. A refusal marks the shop at once: a refused refresh token, and a 401 on
// a non-expiring token, which is first offered to the migration exchange (it recovers a migration
// whose answer was not stored yet; after 2027-01-01 Shopify refuses it). A refusal of a token the
// row no longer holds (the merchant re-authorised meanwhile) marks nothing; and since the mark and
// the merchant's new session are written by different processes, the row is read again after the
// mark and the mark undone (`unpark`) when a new session arrived in between.

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
   * Why the shop waits for its merchant (Shopify refused its token), or null. Asked before every
   * call: a parked shop gets neither an Admin API call nor a token call.
   */
  parked?: (shop: string) => Promise<string | null>;
  /** Undoes a "needs-merchant" mark: a new session was stored while the refusal was being marked. */
  unpark?: (shop: string) => Promise<void>;
}

export type RefreshOutcome = "refreshed" | "lost-answer-retried" | "migrated" | "needs-merchant" | "failed";

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

  async function gate(shop: string): Promise<void> {
    const parkedFor = await options.parked?.(shop);
    if (parkedFor) throw new ShopWaitsForMerchantError(shop, parkedFor);
  }

  async function askKeepingLostAnswers(shop: string, ask: () => Promise<TokenPair>): Promise<TokenPair> {
    for (let attempt = 1; ; attempt++) {
      try {
        const pair = await ask();
        if (attempt > 1) await options.observe?.(shop, "lost-answer-retried");
        return pair;
      } catch (error) {
        if (!(error instanceof ShopifyRetryableError) || attempt >= attempts) throw error;
        log.warn({ shop, attempt, err: error.message }, "token endpoint answer lost; asking again with the same token");
        await new Promise((r) => setTimeout(r, retryDelayMs * attempt));
      }
    }
  }

  const sameSession = (a: OfflineSession, b: OfflineSession) =>
    a.accessToken === b.accessToken && a.sealedRefreshToken === b.sealedRefreshToken;
  const reread = (shop: string) => sessions.read(shop).catch(() => null);

  /**
   * Shopify refused the grant of `used` (the row as read before asking): the shop waits for its
   * merchant, unless the row moved on meanwhile (then that newer session is the one to use).
   */
  async function refused(shop: string, used: OfflineSession, reason: string, cause: unknown): Promise<TokenGrant> {
    const before = await reread(shop);
    if (before && !sameSession(before, used)) {
      log.info({ shop, reason }, "a replaced token was refused; the shop's new session is used");
      return grant(before);
    }
    await options.observe?.(shop, "needs-merchant", reason);
    const after = await reread(shop);
    if (after && !sameSession(after, used)) {
      await options.unpark?.(shop);
      log.info({ shop, reason }, "the merchant re-authorised while a refusal was marked; mark undone");
      return grant(after);
    }
    throw new ShopWaitsForMerchantError(shop, reason, { cause });
  }

  /** Asks Shopify for a new pair for `row`; a refusal parks the shop (see `refused`). */
  async function renewRow(shop: string, row: OfflineSession, refreshToken: string | null): Promise<TokenGrant> {
    let pair: TokenPair;
    try {
      pair = await askKeepingLostAnswers(shop, () =>
        refreshToken ? endpoint.refresh(shop, refreshToken) : endpoint.migrate(shop, row.accessToken),
      );
    } catch (error) {
      if (error instanceof ShopifyReauthRequiredError) return refused(shop, row, error.reason, error);
      await options.observe?.(shop, "failed", (error as Error).message);
      throw error;
    }
    if (await sessions.replace(row, pair)) {
      await options.observe?.(shop, refreshToken ? "refreshed" : "migrated");
      log.info(
        { shop, expires: pair.expires.toISOString() },
        refreshToken ? "offline access token refreshed" : "non-expiring offline token migrated after a 401",
      );
      return { accessToken: pair.accessToken, expires: pair.expires };
    }
    // The row changed under us (the library refreshed in a merchant's request, or a reinstall):
    // ours stays unstored; the pair we hold is valid for this call.
    log.warn({ shop }, "offline session changed during a token refresh; keeping the stored pair");
    return { accessToken: pair.accessToken, expires: pair.expires };
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
        // Or marked the shop: Shopify is not asked again.
        await gate(shop);
        const refreshToken = sessions.openRefreshToken(row);
        if (!refreshToken && row.expires !== null) {
          const reason = "no-refresh-token";
          return refused(shop, row, reason, new Error("The shop's offline session has no refresh token"));
        }
        // A non-expiring token is only renewed after Shopify refused it: by the migration exchange.
        if (!refreshToken && !force) return grant(row);
        return renewRow(shop, row, refreshToken);
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
      await gate(shop);
      const row = await sessions.read(shop);
      if (fresh(row)) return grant(row);
      return shared(shop, () => refresh(shop, row.accessToken, false));
    },

    async renew(shop, rejected) {
      await gate(shop);
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
          if (held && held.until > now()) {
            // A token in hand is not handed out to a shop marked since.
            await gate(shop);
            return held.grant.accessToken;
          }
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
