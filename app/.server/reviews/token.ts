import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { tokenResponseSchema } from "./admin.schemas";
import { ReviewsAuthError, type ReviewsRequestInfo } from "./errors";
import {
  type FetchLike,
  type HttpCall,
  type Redactor,
  type ReviewsLogger,
  errorForStatus,
  isSuccess,
  parseJsonBody,
  readErrorBody,
  send,
  trimTrailingSlash,
} from "./http";
import type { CachedToken, TokenCache } from "./token-cache";

// Access tokens of the Admin API: one token request per account per expiry across all processes.
// The cache holds the token until shortly before it expires; whoever finds it missing takes a lock
// and fetches, the others poll the cache for a bounded time and fetch themselves if the holder
// is too slow or failed.

export interface TokenAccount {
  authUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Cache key of an account's token: a hash of where and for whom, never of the secret. */
export function tokenCacheKey(account: Pick<TokenAccount, "authUrl" | "apiUrl" | "clientId">): string {
  return createHash("sha256")
    .update(`${trimTrailingSlash(account.authUrl)}\n${trimTrailingSlash(account.apiUrl)}\n${account.clientId}`)
    .digest("hex");
}

/** How long a token is reused: until 60 s or 10 % before it expires, whichever is smaller. */
export function tokenReuseMs(expiresInSeconds: number): number {
  const lifetime = expiresInSeconds * 1000;
  return Math.max(1, lifetime - Math.min(60_000, lifetime * 0.1));
}

export interface TokenProviderOptions {
  account: TokenAccount;
  fetch: FetchLike;
  logger: ReviewsLogger;
  cache: TokenCache;
  timeoutMs: number;
  redact: Redactor;
  now: () => number;
  /** How long to wait for another process's token request before making our own. */
  peerWaitMs?: number;
}

export interface TokenProvider {
  /** A valid token, from the cache when possible. `notThis` excludes a token the service refused. */
  get(notThis?: string): Promise<string>;
  /** Forgets `token` if it is still the cached one (a peer may have replaced it already). */
  invalidate(token: string): Promise<void>;
  /** Asks the token endpoint directly (no cache), e.g. to check new credentials. */
  request(): Promise<CachedToken & { expiresIn: number }>;
  /** Tokens this process has seen, for redaction. */
  knownTokens(): readonly string[];
}

export function createTokenProvider(opts: TokenProviderOptions): TokenProvider {
  const { account, logger, cache, now } = opts;
  const key = tokenCacheKey(account);
  const peerWaitMs = opts.peerWaitMs ?? 5_000;
  const tokenUrl = `${trimTrailingSlash(account.authUrl)}/oauth/token`;
  const request: ReviewsRequestInfo = { api: "auth", method: "POST", path: new URL(tokenUrl).pathname };
  const seen: string[] = [];
  let inflight: Promise<string> | null = null;

  const remember = (token: string) => {
    if (!seen.includes(token)) seen.push(token);
    if (seen.length > 5) seen.shift();
  };

  // Cache failures (Redis down) must not stop admin calls: treat them as a miss / a free lock.
  const cacheGet = async (): Promise<CachedToken | null> => {
    try {
      return await cache.get(key);
    } catch (e) {
      logger.warn({ err: String(e) }, "reviews token cache read failed");
      return null;
    }
  };
  const cacheLock = async (): Promise<(() => Promise<void>) | null> => {
    try {
      return await cache.lock(key, opts.timeoutMs + 5_000);
    } catch (e) {
      logger.warn({ err: String(e) }, "reviews token lock failed");
      return async () => {};
    }
  };

  const usable = (c: CachedToken | null, notThis?: string): c is CachedToken =>
    c !== null && c.token !== notThis && c.expiresAt > now();

  async function requestToken(): Promise<CachedToken & { expiresIn: number }> {
    const call: HttpCall = {
      request,
      url: tokenUrl,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        // "audience (fixed: the service's base address {base_url})"
        audience: trimTrailingSlash(account.apiUrl),
        grant_type: "client_credentials",
        client_id: account.clientId,
        client_secret: account.clientSecret,
      }),
      timeoutMs: opts.timeoutMs,
    };
    const res = await send(opts.fetch, logger, call);
    if (!isSuccess(res.status)) {
      // 400/401/403 from a token endpoint means the credentials (or audience) are refused.
      if (res.status === 400 || res.status === 401 || res.status === 403) {
        const body = readErrorBody(res.text, opts.redact);
        throw new ReviewsAuthError("Reviews token request refused", {
          request,
          status: res.status,
          serviceError: body.error,
          serviceMessage: body.message,
          reason: "token_refused",
        });
      }
      throw errorForStatus(call, res, opts.redact);
    }
    const parsed = parseJsonBody(call, res, tokenResponseSchema, logger);
    remember(parsed.access_token);
    return { token: parsed.access_token, expiresAt: now() + parsed.expires_in * 1000, expiresIn: parsed.expires_in };
  }

  async function fetchAndStore(): Promise<string> {
    const t = await requestToken();
    try {
      await cache.set(key, { token: t.token, expiresAt: t.expiresAt }, tokenReuseMs(t.expiresIn));
    } catch (e) {
      logger.warn({ err: String(e) }, "reviews token cache write failed");
    }
    logger.info({ expiresIn: t.expiresIn }, "reviews access token obtained");
    return t.token;
  }

  async function acquire(notThis?: string): Promise<string> {
    const deadline = performance.now() + peerWaitMs;
    let delay = 25;
    for (;;) {
      const release = await cacheLock();
      if (release) {
        try {
          // A peer may have stored a token between our cache miss and our lock.
          const again = await cacheGet();
          if (usable(again, notThis)) return again.token;
          return await fetchAndStore();
        } finally {
          await release().catch((e: unknown) => logger.warn({ err: String(e) }, "reviews token lock release failed"));
        }
      }
      if (performance.now() >= deadline) {
        logger.warn({ waitedMs: peerWaitMs }, "reviews token: peer refresh too slow, fetching ourselves");
        return fetchAndStore();
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 500);
      const c = await cacheGet();
      if (usable(c, notThis)) return c.token;
    }
  }

  async function get(notThis?: string): Promise<string> {
    const cached = await cacheGet();
    if (usable(cached, notThis)) {
      remember(cached.token);
      return cached.token;
    }
    // One token request per process at a time; the lock extends that to all processes.
    // Concurrent callers share its outcome, failures included.
    if (inflight) {
      const t = await inflight;
      if (t !== notThis) return t;
    }
    inflight ??= acquire(notThis).finally(() => {
      inflight = null;
    });
    const token = await inflight;
    remember(token);
    return token;
  }

  async function invalidate(token: string): Promise<void> {
    const cached = await cacheGet();
    if (cached?.token !== token) return;
    try {
      await cache.delete(key);
    } catch (e) {
      logger.warn({ err: String(e) }, "reviews token cache delete failed");
    }
  }

  return { get, invalidate, request: requestToken, knownTokens: () => seen };
}
