import type { z } from "zod";
import {
  ReviewsAuthError,
  type ReviewsError,
  ReviewsPermanentError,
  ReviewsRateLimitedError,
  type ReviewsRequestInfo,
  ReviewsResponseError,
  ReviewsRetryableError,
  parseRetryAfter,
} from "./errors";
import { observeServiceCall } from "../metrics";

// The one place where the client touches the network: timeouts, error classification, body
// parsing and request logging. Nothing here knows about endpoints.

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** pino-compatible subset. */
export interface ReviewsLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: ReviewsLogger = { debug() {}, info() {}, warn() {}, error() {} };

// ---------------------------------------------------------------------------------------------
// Paths

/**
 * A path segment: plain strings are percent-encoded (SKUs may hold `/`, `#`, `?`, spaces...);
 * `{ secret }` is encoded too but shown as `***` in logs and errors (verification tokens are
 * bearer capabilities); `{ literal }` is inserted as is (only for segments we build from enums).
 */
export type Segment = string | { secret: string } | { literal: string };

export class InvalidSegmentError extends Error {}

function encodeSegment(value: string): string {
  // `.` and `..` (and their %2E forms, which URL parsers treat the same) would be resolved away
  // by the URL parser and hit another resource.
  if (value === "" || value === "." || value === "..") {
    throw new InvalidSegmentError(`path segment ${JSON.stringify(value)} cannot be sent`);
  }
  return encodeURIComponent(value);
}

export function buildPath(segments: Segment[]): { path: string; logPath: string } {
  const real: string[] = [];
  const shown: string[] = [];
  for (const s of segments) {
    if (typeof s === "string") {
      const e = encodeSegment(s);
      real.push(e);
      shown.push(e);
    } else if ("secret" in s) {
      real.push(encodeSegment(s.secret));
      shown.push("***");
    } else {
      real.push(s.literal);
      shown.push(s.literal);
    }
  }
  return { path: `/${real.join("/")}`, logPath: `/${shown.join("/")}` };
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/** Arrays become repeated parameters; booleans `true`/`false`; undefined and null are left out. */
export function toQueryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
    else params.append(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

export function trimTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

// ---------------------------------------------------------------------------------------------
// Secrets

/** Replaces every occurrence of the given secrets in service-provided text. */
export type Redactor = (text: string) => string;

export function makeRedactor(secrets: () => readonly string[]): Redactor {
  return (text) => {
    let out = text;
    for (const s of secrets()) if (s.length >= 4) out = out.split(s).join("[redacted]");
    return out;
  };
}

const MAX_SERVICE_TEXT = 500;

// ---------------------------------------------------------------------------------------------
// Sending

export interface HttpCall {
  request: ReviewsRequestInfo;
  url: string;
  headers?: Record<string, string>;
  /** Already serialised. */
  body?: string | Uint8Array;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  durationMs: number;
}

function causeSummary(e: unknown): { name: string; message: string; code?: string } {
  // Keep only name/message/code: the raw error object can hold sockets and request state.
  const err = e as { name?: unknown; message?: unknown; code?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code =
    typeof err?.cause?.code === "string" ? err.cause.code : typeof err?.code === "string" ? err.code : undefined;
  const inner = typeof err?.cause?.message === "string" ? `: ${err.cause.message}` : "";
  return {
    name: typeof err?.name === "string" ? err.name : "Error",
    message: `${typeof err?.message === "string" ? err.message : String(e)}${inner}`,
    ...(code ? { code } : {}),
  };
}

export async function send(fetchFn: FetchLike, logger: ReviewsLogger, call: HttpCall): Promise<HttpResult> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([timeout, call.signal]) : timeout;
  const started = performance.now();
  const { method, path, api } = call.request;
  try {
    const res = await fetchFn(call.url, {
      method,
      headers: call.headers,
      // Node's Buffer is a Uint8Array over ArrayBufferLike, which DOM's BodyInit typing does not name.
      body: call.body as BodyInit | undefined,
      signal,
      // A redirect would carry the bearer token elsewhere: treated as an unexpected response.
      redirect: "manual",
    });
    // The body is read under the same signal, so a stalled or cut body is a timeout/network error.
    const text = await res.text();
    const durationMs = Math.round(performance.now() - started);
    logger.debug({ api, method, path, status: res.status, durationMs }, "reviews request");
    observeServiceCall(call.request, res.status, durationMs / 1000);
    return { status: res.status, headers: res.headers, text, durationMs };
  } catch (e) {
    const durationMs = Math.round(performance.now() - started);
    const timedOut = timeout.aborted;
    const aborted = !timedOut && call.signal?.aborted === true;
    const reason = timedOut ? "timeout" : aborted ? "aborted" : "network";
    logger.debug({ api, method, path, status: null, durationMs, reason }, "reviews request failed");
    observeServiceCall(call.request, reason, durationMs / 1000);
    throw new ReviewsRetryableError(
      timedOut
        ? `Reviews request timed out after ${call.timeoutMs} ms`
        : aborted
          ? "Reviews request aborted"
          : "Reviews request failed",
      { request: call.request, status: null, reason, cause: causeSummary(e) },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Reading responses

export interface ServiceErrorBody {
  error: string | null;
  message: string | null;
  conflictingSkus: string[] | null;
}

/**
 * Error bodies are documented only for the catalog and groups (`{error, message}`,
 * `{message, conflictingSkus}`); for the rest they are "not shown", so any JSON or text is accepted:
 * string `error`/`message` fields when the body is a JSON object, else the start of the text.
 */
export function readErrorBody(text: string, redact: Redactor): ServiceErrorBody {
  const clip = (s: string) => redact(s).slice(0, MAX_SERVICE_TEXT);
  const out: ServiceErrorBody = { error: null, message: null, conflictingSkus: null };
  if (text.trim() === "") return out;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    out.message = clip(text.trim());
    return out;
  }
  if (json && typeof json === "object" && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    if (typeof o.error === "string") out.error = clip(o.error);
    else if (o.error && typeof o.error === "object" && typeof (o.error as { message?: unknown }).message === "string") {
      out.error = clip((o.error as { message: string }).message);
    }
    if (typeof o.message === "string") out.message = clip(o.message);
    else if (typeof o.error_description === "string") out.message = clip(o.error_description);
    if (Array.isArray(o.conflictingSkus))
      out.conflictingSkus = o.conflictingSkus.filter((s): s is string => typeof s === "string");
  } else if (typeof json === "string") {
    out.message = clip(json);
  }
  return out;
}

/** Maps a non-2xx response to the error that tells the caller what to do. */
export function errorForStatus(call: HttpCall, res: HttpResult, redact: Redactor): ReviewsError {
  const body = readErrorBody(res.text, redact);
  const details = {
    request: call.request,
    status: res.status,
    serviceError: body.error,
    serviceMessage: body.message,
  };
  const s = res.status;
  if (s === 429) {
    return new ReviewsRateLimitedError("Reviews service rate limit", {
      ...details,
      retryAfterMs: parseRetryAfter(res.headers.get("retry-after")),
    });
  }
  // 408 is the server giving up on a slow request: the same as our own timeout.
  if (s >= 500 || s === 408) {
    return new ReviewsRetryableError("Reviews service error", { ...details, reason: "server" });
  }
  if (s === 401)
    return new ReviewsAuthError("Reviews service refused the credentials", { ...details, reason: "unauthorized" });
  if (s === 413) return new ReviewsPermanentError("Reviews request too large", { ...details, reason: "too_large" });
  if (s === 409) {
    return new ReviewsPermanentError("Reviews service conflict", {
      ...details,
      reason: "conflict",
      conflictingSkus: body.conflictingSkus ?? [],
    });
  }
  if (s === 400)
    return new ReviewsPermanentError("Reviews service rejected the request", { ...details, reason: "bad_request" });
  if (s === 403)
    return new ReviewsPermanentError("Reviews service forbids this request", { ...details, reason: "forbidden" });
  if (s === 404) return new ReviewsPermanentError("Reviews resource not found", { ...details, reason: "not_found" });
  if (s >= 400)
    return new ReviewsPermanentError("Reviews service rejected the request", { ...details, reason: "client_error" });
  return new ReviewsResponseError("Unexpected reviews response status", { ...details, reason: "unexpected_status" });
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function issueList(error: z.ZodError): string[] {
  // Path and message only: zod 4 messages do not include the input value.
  return error.issues.slice(0, 10).map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
}

/** Parses a 2xx JSON body with `schema`; anything else is a logged ReviewsResponseError. */
export function parseJsonBody<S extends z.ZodType>(
  call: HttpCall,
  res: HttpResult,
  schema: S,
  logger: ReviewsLogger,
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(res.text);
  } catch {
    const err = new ReviewsResponseError("Reviews response is not JSON", {
      request: call.request,
      status: res.status,
      reason: "invalid_json",
    });
    logger.warn({ err: err.toJSON() }, "unexpected reviews response");
    throw err;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = issueList(parsed.error);
    const err = new ReviewsResponseError("Reviews response does not match the expected shape", {
      request: call.request,
      status: res.status,
      reason: "schema_mismatch",
      issues,
    });
    logger.warn({ err: err.toJSON(), issues }, "unexpected reviews response");
    throw err;
  }
  return parsed.data;
}

/** Bodies whose shape is "not shown": parsed JSON when it is JSON, the text otherwise, null when empty. */
export function readUnknownBody(res: HttpResult): unknown {
  if (res.text.trim() === "") return null;
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    return res.text;
  }
}

export function invalidRequest(request: ReviewsRequestInfo, error: z.ZodError | string): ReviewsPermanentError {
  const issues = typeof error === "string" ? [error] : issueList(error);
  return new ReviewsPermanentError(`Reviews request refused by the client (${issues.join("; ")})`, {
    request,
    status: null,
    reason: "invalid_request",
    issues,
  });
}
