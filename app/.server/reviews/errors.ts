// Errors of the reviews client, sorted by what the caller should do with them:
//   retryable     → retry later with backoff (network, timeout, dropped connection, 5xx)
//   rate_limited  → slow down for `retryAfterMs`, then retry (costs no attempt)
//   permanent     → give up on this request and show the reason (4xx, invalid request)
//   auth          → credentials are wrong or revoked: stop the account until the merchant fixes them
//   response      → the service answered something we do not understand: give up on this call, log it
//
// Every error carries the request it came from (method and a path without query string, with
// secret path segments masked), never headers or bodies: these objects end up in job records and
// logs, which are stored in clear.

export type ReviewsErrorKind = "retryable" | "rate_limited" | "permanent" | "auth" | "response";

export type ReviewsApi = "admin" | "storefront" | "auth" | "upload";

export interface ReviewsRequestInfo {
  api: ReviewsApi;
  method: string;
  /** Path without query string; secret segments (verification tokens) replaced by `***`. */
  path: string;
}

export interface ReviewsErrorDetails {
  request: ReviewsRequestInfo;
  /** HTTP status, or null when no response was received or the request never left. */
  status?: number | null;
  /** The service's `error` label, when its body had one. */
  serviceError?: string | null;
  /** The service's `message` (or the start of a non-JSON body). */
  serviceMessage?: string | null;
  cause?: unknown;
}

export abstract class ReviewsError extends Error {
  abstract readonly kind: ReviewsErrorKind;
  readonly status: number | null;
  readonly serviceError: string | null;
  readonly serviceMessage: string | null;
  readonly request: ReviewsRequestInfo;

  constructor(summary: string, details: ReviewsErrorDetails) {
    const status = details.status ?? null;
    const parts = [`${details.request.method} ${details.request.path}`];
    if (status !== null) parts.push(`→ ${status}`);
    if (details.serviceError) parts.push(details.serviceError);
    if (details.serviceMessage) parts.push(`"${details.serviceMessage}"`);
    super(`${summary}: ${parts.join(" ")}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = status;
    this.serviceError = details.serviceError ?? null;
    this.serviceMessage = details.serviceMessage ?? null;
    this.request = details.request;
  }

  /** What gets stored when the error is serialised (job failure reasons, structured logs). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this)) if (k !== "cause") out[k] = v;
    return { name: this.name, kind: this.kind, message: this.message, ...out };
  }
}

export type RetryableReason = "network" | "timeout" | "server" | "aborted";

export class ReviewsRetryableError extends ReviewsError {
  readonly kind = "retryable" as const;
  readonly reason: RetryableReason;
  constructor(summary: string, details: ReviewsErrorDetails & { reason: RetryableReason }) {
    super(summary, details);
    this.reason = details.reason;
  }
}

export class ReviewsRateLimitedError extends ReviewsError {
  readonly kind = "rate_limited" as const;
  readonly retryAfterMs: number;
  constructor(summary: string, details: ReviewsErrorDetails & { retryAfterMs: number }) {
    super(summary, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}

export type PermanentReason =
  | "bad_request"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "client_error"
  /** Refused by the client before sending: the body or query does not match the documented schema. */
  | "invalid_request";

export class ReviewsPermanentError extends ReviewsError {
  readonly kind = "permanent" as const;
  readonly reason: PermanentReason;
  /** True for 413 (body over 10 MB), or when the client refused to send an oversized body. */
  readonly tooLarge: boolean;
  /** Group create/update 409: the SKUs that already belong to another group. */
  readonly conflictingSkus: string[] | null;
  /** Schema issues (path and message only, never values) for `invalid_request`. */
  readonly issues: string[];
  constructor(
    summary: string,
    details: ReviewsErrorDetails & { reason: PermanentReason; conflictingSkus?: string[] | null; issues?: string[] },
  ) {
    super(summary, details);
    this.reason = details.reason;
    this.tooLarge = details.reason === "too_large";
    this.conflictingSkus = details.conflictingSkus ?? null;
    this.issues = details.issues ?? [];
  }
}

export type AuthReason = "token_refused" | "unauthorized";

export class ReviewsAuthError extends ReviewsError {
  readonly kind = "auth" as const;
  readonly reason: AuthReason;
  constructor(summary: string, details: ReviewsErrorDetails & { reason: AuthReason }) {
    super(summary, details);
    this.reason = details.reason;
  }
}

export type ResponseReason = "invalid_json" | "schema_mismatch" | "unexpected_status";

export class ReviewsResponseError extends ReviewsError {
  readonly kind = "response" as const;
  readonly reason: ResponseReason;
  /** Schema issues (path and message only, never values). */
  readonly issues: string[];
  constructor(summary: string, details: ReviewsErrorDetails & { reason: ResponseReason; issues?: string[] }) {
    super(summary, details);
    this.reason = details.reason;
    this.issues = details.issues ?? [];
  }
}

export function isReviewsError(e: unknown): e is ReviewsError {
  return e instanceof ReviewsError;
}

/** True for errors a later attempt may cure without anyone changing anything. */
export function isTransient(e: unknown): e is ReviewsRetryableError | ReviewsRateLimitedError {
  return e instanceof ReviewsRetryableError || e instanceof ReviewsRateLimitedError;
}

export const DEFAULT_RETRY_AFTER_MS = 1000;

/**
 * `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). Absent or unreadable
 * values fall back to one second so a caller always has something to wait for.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number {
  if (value == null) return DEFAULT_RETRY_AFTER_MS;
  const trimmed = value.trim();
  if (trimmed === "") return DEFAULT_RETRY_AFTER_MS;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return DEFAULT_RETRY_AFTER_MS;
  return Math.max(0, at - now);
}
