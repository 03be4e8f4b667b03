import type { Logger } from "pino";
import { z } from "zod";
import {
  ShopifyAddressRefusedError,
  ShopifyAuthError,
  ShopifyPermanentError,
  ShopifyRetryableError,
  ShopifyThrottledError,
  type GraphqlErrorEntry,
} from "./errors";
import { processThrottle, waitForCost, type QueryCost, type ThrottleRegistry } from "./throttle";
import { observeShopifyThrottle } from "../metrics";

// One way to call the Admin GraphQL API for a shop, used by the web app and the workers alike.
// It owns the rate limit (cost-based, per shop) and turns every failure into an error that says
// what to do next (see errors.ts). It does not retry 5xx or network errors itself: the job queue
// does, with backoff, so that a sick Shopify is not hammered from inside one job.

/** Where a client's access token comes from when it can change (expiring offline tokens). */
export interface AccessTokenSource {
  current(): Promise<string>;
  /** After a 401 to `rejected`: the token to try once more with (refreshed unless someone did). */
  renew?(rejected: string): Promise<string>;
}

export interface AdminGraphqlOptions {
  /** The shop's myshopify domain, e.g. example.myshopify.com. */
  shop: string;
  /** A fixed token, or its source (token-provider.ts): asked before every call. */
  accessToken: string | AccessTokenSource;
  /** e.g. "2026-01". */
  apiVersion: string;
  fetch?: typeof globalThis.fetch;
  logger: Logger;
  /** Overrides https://{shop}/admin/api/{apiVersion}/graphql.json (simulated store, offline demo). */
  endpoint?: string;
  /** Bucket projection per shop; the process-wide one by default. */
  throttle?: ThrottleRegistry;
  /** THROTTLED answers retried after the computed wait; 3 by default. */
  maxThrottleRetries?: number;
  /** Per request; 30 s by default. */
  timeoutMs?: number;
  /** Injected in tests to observe waits without waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface GraphqlResponse<T> {
  data: T;
  cost: QueryCost | null;
}

export interface AdminGraphql {
  readonly shop: string;
  /** Runs a document and returns `data`; throws a ShopifyApiError subclass otherwise. */
  query<T = unknown>(
    document: string,
    variables?: Record<string, unknown>,
    opts?: { signal?: AbortSignal },
  ): Promise<T>;
  /** Same, with the cost extension (for callers that log or meter cost). */
  request<T = unknown>(
    document: string,
    variables?: Record<string, unknown>,
    opts?: { signal?: AbortSignal },
  ): Promise<GraphqlResponse<T>>;
}

const throttleStatusSchema = z.object({
  maximumAvailable: z.number(),
  currentlyAvailable: z.number(),
  restoreRate: z.number(),
});

const envelopeSchema = z.looseObject({
  data: z.unknown().optional(),
  // A list of GraphQL errors; 401 bodies carry a plain string here instead.
  errors: z
    .union([
      z.string(),
      z.array(
        z.looseObject({
          message: z.string().default("(no message)"),
          path: z.array(z.union([z.string(), z.number()])).optional(),
          extensions: z.looseObject({ code: z.string().optional() }).optional(),
        }),
      ),
    ])
    .optional(),
  extensions: z
    .looseObject({
      cost: z
        .looseObject({
          requestedQueryCost: z.number().nullish(),
          actualQueryCost: z.number().nullish(),
          throttleStatus: throttleStatusSchema.nullish(),
        })
        .optional(),
    })
    .optional(),
});

// GraphQL error codes that describe Shopify's state, not our document.
const RETRYABLE_CODES = new Set([
  "INTERNAL_SERVER_ERROR",
  "SERVICE_UNAVAILABLE",
  "TIMEOUT",
  "SHOP_INACTIVE_TEMPORARILY",
]);
const AUTH_CODES = new Set(["ACCESS_DENIED", "UNAUTHENTICATED", "FORBIDDEN"]);
// A THROTTLED answer without cost information (rare) waits this long, times the attempt.
const FALLBACK_THROTTLE_WAIT_MS = 1_000;
// A THROTTLED answer whose numbers say "go now" still waits a little: the clocks are not the same.
const MIN_THROTTLE_WAIT_MS = 100;

// Shopify's body of a refusal is kept for the operator, cut to this length (it names no secret:
// the token travels in a header, never in a body).
const REFUSAL_BODY_CHARS = 500;

function bodyExcerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > REFUSAL_BODY_CHARS ? `${flat.slice(0, REFUSAL_BODY_CHARS)}…` : flat || "(empty body)";
}

/**
 * How a 403 is told apart. Shopify documents the IP allowlist's refusal as HTTP 403 and nothing
 * more, while a missing access scope (or protected customer data not granted) is a GraphQL error
 * entry with `extensions.code` ACCESS_DENIED, normally in an HTTP 200. So: a 403 whose body holds
 * such an entry is about scopes (ShopifyAuthError); any other 403 is the allowlist's.
 */
function deniesAccess(body: z.infer<typeof envelopeSchema> | null): boolean {
  return Array.isArray(body?.errors) && body.errors.some((e) => e.extensions?.code === "ACCESS_DENIED");
}

export function operationName(document: string): string | undefined {
  return /\b(?:query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(document)?.[1];
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function retryAfterHeader(res: Response): number | null {
  const v = res.headers.get("retry-after");
  if (!v) return null;
  const secs = Number(v);
  return Number.isFinite(secs) && secs >= 0 ? Math.ceil(secs * 1_000) : null;
}

export function createAdminGraphql(options: AdminGraphqlOptions): AdminGraphql {
  const {
    shop,
    accessToken,
    apiVersion,
    logger,
    maxThrottleRetries = 3,
    timeoutMs = 30_000,
    sleep = defaultSleep,
  } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const endpoint = options.endpoint ?? `https://${shop}/admin/api/${apiVersion}/graphql.json`;
  const bucket = (options.throttle ?? processThrottle).bucket(shop);
  const log = logger.child({ shop });
  const tokens: AccessTokenSource =
    typeof accessToken === "string" ? { current: async () => accessToken } : accessToken;

  async function send(
    document: string,
    variables: Record<string, unknown> | undefined,
    name: string | undefined,
    token: string,
    signal?: AbortSignal,
  ) {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await fetchImpl(endpoint, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-Shopify-Access-Token": token,
        },
        body: JSON.stringify({ query: document, variables: variables ?? {}, ...(name ? { operationName: name } : {}) }),
        signal: combined,
      });
    } catch (error) {
      // The caller's own abort is not a Shopify failure: let it through as is.
      if (signal?.aborted) throw error;
      const what = timeout.aborted ? `timed out after ${timeoutMs} ms` : "network error";
      throw new ShopifyRetryableError(`${name ?? "GraphQL"}: ${what}`, { shop, cause: error });
    }
  }

  async function request<T>(
    document: string,
    variables?: Record<string, unknown>,
    opts: { signal?: AbortSignal } = {},
  ): Promise<GraphqlResponse<T>> {
    const name = operationName(document);
    const label = name ?? "GraphQL";
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const reservation = bucket.reserve(document);
      try {
        if (reservation.waitMs > 0) {
          log.debug({ operation: name, waitMs: reservation.waitMs }, "waiting for the GraphQL cost bucket");
          await sleep(reservation.waitMs, opts.signal);
        }
      } finally {
        reservation.release();
      }

      const token = await tokens.current();
      const res = await send(document, variables, name, token, opts.signal);
      const text = await res.text().catch(() => "");
      let body: z.infer<typeof envelopeSchema> | null = null;
      try {
        const parsed = envelopeSchema.safeParse(text ? JSON.parse(text) : {});
        body = parsed.success ? parsed.data : null;
      } catch {
        body = null;
      }
      const cost = (body?.extensions?.cost ?? null) as QueryCost | null;
      bucket.observe(document, cost);

      // An expiring token may have run out (or been replaced elsewhere): one refresh, one more try.
      if (res.status === 401 && tokens.renew && !renewed) {
        renewed = true;
        log.info({ operation: name }, "GraphQL answered 401; renewing the access token and trying once more");
        await tokens.renew(token);
        attempt--;
        continue;
      }
      if (res.status === 403 && !deniesAccess(body)) {
        throw new ShopifyAddressRefusedError(
          `${label}: HTTP 403, Shopify refused this server's address (IP allowlist): ${bodyExcerpt(text)}`,
          {
            shop,
            body: bodyExcerpt(text),
          },
        );
      }
      if (res.status === 401 || res.status === 403) {
        throw new ShopifyAuthError(`${label}: HTTP ${res.status} (access token rejected or missing scope)`, {
          shop,
          status: res.status,
        });
      }
      const throttledByStatus = res.status === 429;
      const graphqlErrors: GraphqlErrorEntry[] = Array.isArray(body?.errors)
        ? (body.errors as GraphqlErrorEntry[])
        : [];
      const throttled = throttledByStatus || graphqlErrors.some((e) => e.extensions?.code === "THROTTLED");

      if (throttled) {
        const fromCost =
          cost?.throttleStatus && typeof cost.requestedQueryCost === "number"
            ? Math.max(MIN_THROTTLE_WAIT_MS, waitForCost(cost.throttleStatus, cost.requestedQueryCost))
            : null;
        const waitMs = retryAfterHeader(res) ?? fromCost ?? FALLBACK_THROTTLE_WAIT_MS * (attempt + 1);
        if (attempt >= maxThrottleRetries) {
          throw new ShopifyThrottledError(`${label}: throttled after ${attempt + 1} attempts`, {
            shop,
            retryAfterMs: waitMs,
            status: res.status,
            errors: graphqlErrors,
          });
        }
        log.warn(
          { operation: name, waitMs, attempt: attempt + 1, cost },
          "GraphQL throttled; retrying after the bucket refills",
        );
        observeShopifyThrottle(waitMs);
        await sleep(waitMs, opts.signal);
        continue;
      }

      if (res.status >= 500) {
        throw new ShopifyRetryableError(`${label}: HTTP ${res.status}`, {
          shop,
          status: res.status,
          errors: graphqlErrors,
        });
      }
      if (res.status >= 400) {
        const detail = typeof body?.errors === "string" ? `: ${body.errors}` : "";
        throw new ShopifyPermanentError(`${label}: HTTP ${res.status}${detail}`, {
          shop,
          status: res.status,
          errors: graphqlErrors,
        });
      }
      if (!body) {
        // A 200 that is not our JSON: a proxy or a half-written answer. Worth another try later.
        throw new ShopifyRetryableError(`${label}: unreadable response (HTTP ${res.status})`, {
          shop,
          status: res.status,
        });
      }
      if (graphqlErrors.length > 0) {
        const codes = graphqlErrors.map((e) => e.extensions?.code).filter((c): c is string => !!c);
        const message = `${label}: ${graphqlErrors.map((e) => e.message).join("; ")}`;
        if (codes.some((c) => AUTH_CODES.has(c)))
          throw new ShopifyAuthError(message, { shop, status: res.status, errors: graphqlErrors });
        if (codes.length > 0 && codes.every((c) => RETRYABLE_CODES.has(c))) {
          throw new ShopifyRetryableError(message, { shop, status: res.status, errors: graphqlErrors });
        }
        throw new ShopifyPermanentError(message, { shop, status: res.status, errors: graphqlErrors });
      }
      if (body.data === undefined || body.data === null) {
        throw new ShopifyPermanentError(`${label}: response without data`, { shop, status: res.status });
      }
      return { data: body.data as T, cost };
    }
  }

  return {
    shop,
    request,
    async query<T>(document: string, variables?: Record<string, unknown>, opts?: { signal?: AbortSignal }) {
      return (await request<T>(document, variables, opts)).data;
    },
  };
}
