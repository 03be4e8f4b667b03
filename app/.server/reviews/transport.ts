import type { z } from "zod";
import { ADMIN_AUTH_HEADER, ADMIN_AUTH_SCHEME, DEFAULT_TIMEOUT_MS, DEFAULT_TOKEN_TIMEOUT_MS } from "./client-options";
import type { CallOptions, CreateReviewsClientOptions } from "./client-options";
import { ReviewsRateLimitedError, parseRetryAfter, type ReviewsRequestInfo } from "./errors";
import {
  type FetchLike,
  type HttpCall,
  type HttpResult,
  InvalidSegmentError,
  type QueryValue,
  type Segment,
  buildPath,
  errorForStatus,
  invalidRequest,
  isSuccess,
  makeRedactor,
  parseJsonBody,
  readUnknownBody,
  send,
  silentLogger,
  toQueryString,
  trimTrailingSlash,
} from "./http";
import { type TokenProvider, createTokenProvider } from "./token";
import { memoryTokenCache } from "./token-cache";
import { observeServicePause } from "../metrics";

// How every call of the reviews client reaches the service: the path under `{customer}`, the
// admin token (one refresh on a 401), the account's pause after a 429, the request checks and
// the reading of the answer. The endpoints (admin-api.ts, storefront-api.ts) are built on it.

type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface Endpoint {
  api: "admin" | "storefront";
  method: Method;
  /** Segments after `{customer}`. */
  segments: Segment[];
  query?: Record<string, QueryValue>;
  body?: unknown;
  options?: CallOptions;
}

export function createTransport(options: CreateReviewsClientOptions) {
  const { account } = options;
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const logger = options.logger ?? silentLogger;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const validate = options.validateRequests ?? true;
  const apiUrl = trimTrailingSlash(account.apiUrl);

  // Service-provided text is scrubbed of the secret and of every token this client has seen.
  const redact = makeRedactor(() => [account.clientSecret, ...tokens.knownTokens()]);
  const tokens: TokenProvider = createTokenProvider({
    account,
    fetch: fetchFn,
    logger,
    cache: options.tokenCache ?? memoryTokenCache({ now: options.now }),
    timeoutMs: options.tokenTimeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS,
    redact,
    now: options.now ?? Date.now,
    peerWaitMs: options.tokenPeerWaitMs,
  });

  function locate(ep: Endpoint): { call: Omit<HttpCall, "headers">; info: ReviewsRequestInfo } {
    let built: { path: string; logPath: string };
    try {
      built = buildPath([account.customer, ...ep.segments]);
    } catch (e) {
      if (e instanceof InvalidSegmentError) {
        throw invalidRequest({ api: ep.api, method: ep.method, path: "(unbuildable path)" }, e.message);
      }
      throw e;
    }
    const info: ReviewsRequestInfo = { api: ep.api, method: ep.method, path: built.logPath };
    const body = ep.body === undefined ? undefined : JSON.stringify(ep.body);
    return {
      info,
      call: {
        request: info,
        url: `${apiUrl}${built.path}${toQueryString(ep.query)}`,
        body,
        timeoutMs: ep.options?.timeoutMs ?? timeoutMs,
        signal: ep.options?.signal,
      },
    };
  }

  /** Sends once (twice after a 401 on an admin call) and returns whatever status came back. */
  async function exchange(ep: Endpoint): Promise<{ call: HttpCall; res: HttpResult }> {
    const { call: base } = locate(ep);
    const headers: Record<string, string> = { accept: "application/json" };
    if (base.body !== undefined) headers["content-type"] = "application/json";
    if (ep.api === "storefront") {
      // The Client API's authentication is "not shown"; the emulator needs none.
      const call = { ...base, headers };
      return { call, res: await send(fetchFn, logger, call) };
    }
    const token = await tokens.get();
    const call = { ...base, headers: { ...headers, [ADMIN_AUTH_HEADER]: `${ADMIN_AUTH_SCHEME} ${token}` } };
    const res = await sendAdmin(call);
    if (res.status !== 401) return { call, res };
    logger.info({ api: ep.api, method: ep.method, path: base.request.path }, "reviews token refused, refreshing once");
    await tokens.invalidate(token);
    const fresh = await tokens.get(token);
    const retry = { ...base, headers: { ...headers, [ADMIN_AUTH_HEADER]: `${ADMIN_AUTH_SCHEME} ${fresh}` } };
    // A second 401 comes out of errorForStatus as ReviewsAuthError.
    return { call: retry, res: await sendAdmin(retry) };
  }

  /** Sends unless the account is paused (then fails as rate limited, unsent); a 429 pauses it. */
  async function sendAdmin(call: HttpCall): Promise<HttpResult> {
    const pause = options.pause;
    // A pause we cannot read (Redis away) lets the call go: the service answers 429 again if need be.
    const waitMs = pause ? await pause.remainingMs().catch(() => 0) : 0;
    if (waitMs > 0) {
      throw new ReviewsRateLimitedError("Reviews calls paused after a rate limit", {
        request: call.request,
        status: null,
        retryAfterMs: waitMs,
      });
    }
    const res = await send(fetchFn, logger, call);
    if (res.status === 429 && pause) {
      observeServicePause(parseRetryAfter(res.headers.get("retry-after")));
      await pause
        .hold(parseRetryAfter(res.headers.get("retry-after")))
        .catch((e: unknown) => logger.warn({ err: String(e) }, "reviews pause not stored"));
    }
    return res;
  }

  async function json<S extends z.ZodType>(ep: Endpoint, schema: S): Promise<z.output<S>> {
    const { call, res } = await exchange(ep);
    if (!isSuccess(res.status)) throw errorForStatus(call, res, redact);
    return parseJsonBody(call, res, schema, logger);
  }

  /** "No body in the response; 200 means success": whatever body there is, is ignored. */
  async function noBody(ep: Endpoint): Promise<void> {
    const { call, res } = await exchange(ep);
    if (!isSuccess(res.status)) throw errorForStatus(call, res, redact);
  }

  /** "Response body: not shown": parsed JSON, raw text or null. */
  async function anyBody(ep: Endpoint): Promise<unknown> {
    const { call, res } = await exchange(ep);
    if (!isSuccess(res.status)) throw errorForStatus(call, res, redact);
    return readUnknownBody(res);
  }

  /** Validates caller input (when enabled) and returns what is to be sent. */
  function check<S extends z.ZodType>(schema: S, value: unknown, ep: Omit<Endpoint, "body" | "query">): z.output<S> {
    if (!validate) return value as z.output<S>;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      let path = "(unbuildable path)";
      try {
        path = buildPath([account.customer, ...ep.segments]).logPath;
      } catch {
        // reported below anyway
      }
      throw invalidRequest({ api: ep.api, method: ep.method, path }, parsed.error);
    }
    return parsed.data;
  }

  /** A call outside the API (a presigned upload): no token, no pause; a non-2xx throws. */
  async function sendPlain(call: HttpCall): Promise<void> {
    const res = await send(fetchFn, logger, call);
    if (!isSuccess(res.status)) throw errorForStatus(call, res, redact);
  }

  return {
    account,
    apiUrl,
    timeoutMs,
    validate,
    redact,
    tokens,
    locate,
    exchange,
    json,
    noBody,
    anyBody,
    check,
    sendPlain,
  };
}

export type Transport = ReturnType<typeof createTransport>;
