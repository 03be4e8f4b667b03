import type { FetchLike, ReviewsLogger } from "./http";
import type { ServicePause } from "./service-pause";
import type { TokenCache } from "./token-cache";

// What a reviews client is made from: the account, the knobs and their defaults, and the per-call
// options every endpoint takes.

/** Name of the header that carries the admin token ("not shown" in the spec: the OAuth default). */
export const ADMIN_AUTH_HEADER = "Authorization";
export const ADMIN_AUTH_SCHEME = "Bearer";

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_TOKEN_TIMEOUT_MS = 10_000;

export interface ReviewsAccount {
  customer: string;
  clientId: string;
  clientSecret: string;
  /** `{base_url}`, e.g. https://api.example.com (paths are `${apiUrl}/${customer}/...`). */
  apiUrl: string;
  /** `{auth_url}`; the token endpoint is `${authUrl}/oauth/token`. */
  authUrl: string;
  /** `{rate_url}` of the rating page. */
  rateUrl: string;
}

export interface CreateReviewsClientOptions {
  account: ReviewsAccount;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** pino-like; default silent. Never receives secrets or tokens. */
  logger?: ReviewsLogger;
  /** Default: a per-process memory cache. Pass `redisTokenCache` to share tokens between processes. */
  tokenCache?: TokenCache;
  /** Per-call timeout, default 15 s. */
  timeoutMs?: number;
  /** Token request timeout, default 10 s. */
  tokenTimeoutMs?: number;
  /**
   * Where a 429's Retry-After is kept so that all calls of the account wait, default none (each
   * caller handles its own 429). Pass `redisServicePause` to share it between processes.
   */
  pause?: ServicePause;
  /**
   * Check bodies and queries against the documented schemas (and the 10 MB catalog limit) before
   * sending, default true. Off only to probe how a service answers invalid input (contract tests).
   */
  validateRequests?: boolean;
  /** How long to wait for another process's token request before making our own, default 5 s. */
  tokenPeerWaitMs?: number;
  /** Clock for token expiry; tests only. */
  now?: () => number;
}

export interface CallOptions {
  /** Aborts the call (e.g. worker shutdown); surfaces as ReviewsRetryableError reason "aborted". */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
}
