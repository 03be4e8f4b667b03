import { randomBytes } from "node:crypto";

// Shopify's offline tokens as the simulated store issues them (shopify.dev, "Use expiring offline
// access tokens", and the changelogs of Aug–Nov 2026):
// - an expiring access token lives `tokenLifetimeMs` (3600 s at Shopify) and comes with a refresh
//   token living `refreshTokenLifetimeMs` (90 days);
// - a refresh rotates both; the refresh token just used stays usable until the new pair is first
//   used (its access token in a call, or its refresh token in a refresh), so a lost answer is
//   recovered by trying again with it; a second refresh with it replaces the unused pair;
// - the migration exchange trades the non-expiring token for a pair; the same exchange again within
//   7 days answers the same pair (access expiry extended) until the pair is refreshed; the
//   non-expiring token no longer works for GraphQL after it;
// - after 2027-01-01 a non-expiring token is refused everywhere: a GraphQL call answers 401 and
//   its migration exchange `invalid_subject_token` (`after2027`, switched on at start or later);
// - a merchant revoking the app's access invalidates every token at once: access tokens answer 401
//   whatever their expiry said, refresh tokens and the exchange `invalid_grant`/`invalid_subject_token`.

export const INVALID_TOKEN_BODY = {
  errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
};
const EXCHANGE_RETRY_MS = 7 * 86_400_000;

export interface OfflineSessionFields {
  accessToken: string;
  expires: Date;
  refreshToken: string;
  refreshTokenExpires: Date;
  scope: string;
}

interface Pair {
  access: string;
  refresh: string;
  accessExpires: number;
  refreshExpires: number;
  /** The refresh token this pair was made from: retired once this pair is first used. */
  parent?: string;
  used: boolean;
  /** The unused pair last issued from this pair's refresh token. */
  successor?: Pair;
  dead: boolean;
}

export type TokenKind = "expiring" | "non-expiring" | "unknown";

/** What a GraphQL call's token was when the store received it. */
export interface TokenUse {
  token: string;
  kind: TokenKind;
  /** Accepted; otherwise why not. */
  verdict: "ok" | "expired" | "revoked" | "unknown";
  /** When the store had already issued the pair that replaced this token's (ms), if it had. */
  supersededAt: number | null;
  at: number;
  /** For an expired token: how long past its expiry the call arrived (ms). */
  expiredForMs?: number;
}

export interface TokenStats {
  refreshes: number;
  refreshesRefused: number;
  exchanges: number;
  exchangesRefused: number;
  /** GraphQL calls answered 401 because their access token had expired. */
  expiredCalls: number;
}

export type TokenAnswer = { status: number; body: unknown };

export interface TokenAuthorityOptions {
  legacyToken: string;
  tokenLifetimeMs: number;
  refreshTokenLifetimeMs: number;
  scope: string;
  /** When set, the token endpoint checks them. */
  clientId?: string;
  clientSecret?: string;
  after2027?: boolean;
  now?: () => number;
  /** Keeps every call's token in `uses` (the default); a fleet of thousands of shops keeps none. */
  keepUses?: boolean;
}

const newToken = (prefix: string) => `${prefix}_${randomBytes(16).toString("hex")}`;

export class TokenAuthority {
  private readonly byAccess = new Map<string, Pair>();
  private readonly byRefresh = new Map<string, Pair>();
  private readonly supersededAt = new Map<string, number>();
  private legacyRetired = false;
  private exchange: { pair: Pair; at: number } | null = null;
  readonly stats: TokenStats = {
    refreshes: 0,
    refreshesRefused: 0,
    exchanges: 0,
    exchangesRefused: 0,
    expiredCalls: 0,
  };
  readonly uses: TokenUse[] = [];
  after2027: boolean;
  private readonly now: () => number;

  constructor(private readonly options: TokenAuthorityOptions) {
    this.after2027 = options.after2027 ?? false;
    this.now = options.now ?? Date.now;
  }

  get legacyToken(): string {
    return this.options.legacyToken;
  }

  set tokenLifetimeMs(ms: number) {
    this.options.tokenLifetimeMs = ms;
  }

  /** A fresh pair, as an install (or the merchant opening the app) would store it. */
  install(lifetimeMs?: number): OfflineSessionFields {
    return this.fields(this.issue(undefined, lifetimeMs));
  }

  /** Checks a GraphQL call's token and records it; a pair's first use retires its parent. */
  admit(token: string): TokenUse {
    const at = this.now();
    const use: TokenUse = {
      token,
      kind: "unknown",
      verdict: "unknown",
      supersededAt: this.supersededAt.get(token) ?? null,
      at,
    };
    if (token === this.options.legacyToken) {
      use.kind = "non-expiring";
      use.verdict = this.after2027 || this.legacyRetired ? "revoked" : "ok";
    } else {
      const pair = this.byAccess.get(token);
      if (pair) {
        use.kind = "expiring";
        if (pair.dead) use.verdict = "revoked";
        else if (at >= pair.accessExpires) {
          use.verdict = "expired";
          use.expiredForMs = at - pair.accessExpires;
        } else {
          use.verdict = "ok";
          this.markUsed(pair);
        }
      }
    }
    if (use.verdict === "expired") this.stats.expiredCalls++;
    if (this.options.keepUses !== false) this.uses.push(use);
    return use;
  }

  /** POST /admin/oauth/access_token with a JSON body. */
  tokenEndpoint(body: Record<string, unknown>): TokenAnswer {
    if (
      this.options.clientId !== undefined &&
      (body.client_id !== this.options.clientId || body.client_secret !== this.options.clientSecret)
    ) {
      return { status: 400, body: { error: "invalid_client", error_description: "Client authentication failed" } };
    }
    if (body.grant_type === "refresh_token") return this.refresh(String(body.refresh_token ?? ""));
    if (body.grant_type === "urn:ietf:params:oauth:grant-type:token-exchange") return this.exchangeToken(body);
    return { status: 400, body: { error: "unsupported_grant_type" } };
  }

  /** Every refresh token stops working (the merchant revoked the app, or 90 days unused). */
  revokeRefreshTokens(): void {
    for (const pair of this.byRefresh.values()) pair.refreshExpires = Math.min(pair.refreshExpires, this.now() - 1);
  }

  /** The merchant revoked the app's access: every pair and the non-expiring token stop working now. */
  revokeAll(): void {
    for (const pair of this.byAccess.values()) this.kill(pair);
    this.legacyRetired = true;
    this.exchange = null;
  }

  /** Every issued access token is past its expiry now. */
  expireAccessTokens(): void {
    for (const pair of this.byAccess.values()) pair.accessExpires = Math.min(pair.accessExpires, this.now());
  }

  private refresh(refreshToken: string): TokenAnswer {
    const pair = this.byRefresh.get(refreshToken);
    if (!pair || pair.dead || this.now() >= pair.refreshExpires) {
      this.stats.refreshesRefused++;
      return {
        status: 400,
        body: { error: "invalid_grant", error_description: "The refresh token is invalid, expired or revoked" },
      };
    }
    this.markUsed(pair);
    // A retry with the same refresh token (its answer was lost): the unused pair it made is void.
    if (pair.successor && !pair.successor.used) this.kill(pair.successor);
    const next = this.issue(refreshToken);
    pair.successor = next;
    this.supersededAt.set(pair.access, this.now());
    if (this.exchange?.pair === pair) this.exchange = null;
    this.stats.refreshes++;
    return { status: 200, body: this.answer(next) };
  }

  private exchangeToken(body: Record<string, unknown>): TokenAnswer {
    const offline = "urn:shopify:params:oauth:token-type:offline-access-token";
    if (body.subject_token_type !== offline || body.requested_token_type !== offline || String(body.expiring) !== "1") {
      this.stats.exchangesRefused++;
      return { status: 400, body: { error: "invalid_request" } };
    }
    if (body.subject_token !== this.options.legacyToken || this.after2027) {
      this.stats.exchangesRefused++;
      return { status: 400, body: { error: "invalid_subject_token" } };
    }
    const now = this.now();
    const earlier = this.exchange;
    if (earlier && now - earlier.at < EXCHANGE_RETRY_MS && !earlier.pair.dead) {
      earlier.pair.accessExpires = Math.max(earlier.pair.accessExpires, now + this.options.tokenLifetimeMs);
      this.stats.exchanges++;
      return { status: 200, body: this.answer(earlier.pair) };
    }
    if (this.legacyRetired) {
      this.stats.exchangesRefused++;
      return { status: 400, body: { error: "invalid_subject_token" } };
    }
    const pair = this.issue();
    this.exchange = { pair, at: now };
    this.legacyRetired = true;
    this.supersededAt.set(this.options.legacyToken, now);
    this.stats.exchanges++;
    return { status: 200, body: this.answer(pair) };
  }

  private issue(parent?: string, lifetimeMs = this.options.tokenLifetimeMs): Pair {
    const now = this.now();
    const pair: Pair = {
      access: newToken("shpat"),
      refresh: newToken("shprt"),
      accessExpires: now + lifetimeMs,
      refreshExpires: now + this.options.refreshTokenLifetimeMs,
      parent,
      used: false,
      dead: false,
    };
    this.byAccess.set(pair.access, pair);
    this.byRefresh.set(pair.refresh, pair);
    return pair;
  }

  private markUsed(pair: Pair): void {
    if (pair.used) return;
    pair.used = true;
    const parent = pair.parent ? this.byRefresh.get(pair.parent) : undefined;
    // The refresh token it replaced is retired; its access token lives on until it expires.
    if (parent) parent.refreshExpires = Math.min(parent.refreshExpires, this.now() - 1);
  }

  private kill(pair: Pair): void {
    pair.dead = true;
    pair.refreshExpires = 0;
  }

  private answer(pair: Pair) {
    const now = this.now();
    return {
      access_token: pair.access,
      expires_in: Math.max(0, Math.floor((pair.accessExpires - now) / 1000)),
      refresh_token: pair.refresh,
      refresh_token_expires_in: Math.max(0, Math.floor((pair.refreshExpires - now) / 1000)),
      scope: this.options.scope,
    };
  }

  private fields(pair: Pair): OfflineSessionFields {
    return {
      accessToken: pair.access,
      expires: new Date(pair.accessExpires),
      refreshToken: pair.refresh,
      refreshTokenExpires: new Date(pair.refreshExpires),
      scope: this.options.scope,
    };
  }
}
