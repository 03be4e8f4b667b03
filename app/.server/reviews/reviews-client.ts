import type { z } from "zod";
import * as admin from "./admin.schemas";
import {
  ReviewsPermanentError,
  ReviewsRateLimitedError,
  parseRetryAfter,
  type ReviewsApi,
  type ReviewsRequestInfo,
} from "./errors";
import {
  type FetchLike,
  type HttpCall,
  type HttpResult,
  InvalidSegmentError,
  type QueryValue,
  type ReviewsLogger,
  type Segment,
  buildPath,
  errorForStatus,
  invalidRequest,
  isSuccess,
  makeRedactor,
  parseJsonBody,
  readErrorBody,
  readUnknownBody,
  send,
  silentLogger,
  toQueryString,
  trimTrailingSlash,
} from "./http";
import { ratePageUrl } from "./rate-page";
import type { ServicePause } from "./service-pause";
import * as sf from "./storefront.schemas";
import { type TokenProvider, createTokenProvider } from "./token";
import { type TokenCache, memoryTokenCache } from "./token-cache";
import { observeServicePause } from "../metrics/metrics";

// The one client of the reviews service: every Admin API and Client API endpoint, typed by the
// zod schemas beside it. It does not retry (the queues do) except for the documented token dance:
// a 401 on an admin call drops the cached token, fetches a new one and repeats the call once.
// With a `pause`, a 429's Retry-After holds back every admin call of the account until it passes.

/** Name of the header that carries the admin token ("not shown" in the spec: the OAuth default). */
export const ADMIN_AUTH_HEADER = "Authorization";
export const ADMIN_AUTH_SCHEME = "Bearer";

/**
 * The rating-link endpoint's method and path are "not shown" in the spec. This form has the shape
 * of no documented route (`/{customer}/orders/{orderId}/rating-link` had that of
 * `GET /{customer}/orders/{verificationTokenId}/{orderId}`, which a service following its
 * documentation would answer as an order-status request); the emulator serves it from this
 * constant. Change it here, nowhere else, when the service says otherwise.
 */
export const RATING_LINK_ROUTE = { method: "GET", path: "/{customer}/rating-link/{orderId}" } as const;

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

export type CreateOrderV1Result = { outcome: "stored" | "duplicate" };

type Method = "GET" | "POST" | "PUT" | "DELETE";

interface Endpoint {
  api: "admin" | "storefront";
  method: Method;
  /** Segments after `{customer}`. */
  segments: Segment[];
  query?: Record<string, QueryValue>;
  body?: unknown;
  options?: CallOptions;
}

// A version-1 order that already exists gets a "duplicate outcome" whose form is "not shown":
// any 409, or a 200/400 whose error/message says so, is read as duplicate.
const DUPLICATE_TEXT = /duplicat|already exists/i;

export function createReviewsClient(options: CreateReviewsClientOptions) {
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

  // ---- plumbing -------------------------------------------------------------------------------

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

  const A = "admin" as const;
  const S = "storefront" as const;

  // ---- Admin API --------------------------------------------------------------------------------

  const adminApi = {
    /** Rating link of one order (route: RATING_LINK_ROUTE). */
    async getRatingLink(orderId: string, opts?: CallOptions): Promise<admin.RatingLink> {
      const segments = RATING_LINK_ROUTE.path
        .split("/")
        .slice(2)
        .map((s) => (s === "{orderId}" ? orderId : s));
      return json(
        { api: A, method: RATING_LINK_ROUTE.method, segments, options: opts },
        admin.ratingLinkResponseSchema,
      );
    },

    /** Version 1: stored, or duplicate when the order already exists (v1 never updates). */
    async createOrderV1(order: admin.OrderV1, opts?: CallOptions): Promise<CreateOrderV1Result> {
      const ep = { api: A, method: "POST" as const, segments: ["orders"], options: opts };
      const body = check(admin.orderV1Schema, order, ep);
      const { call, res } = await exchange({ ...ep, body });
      if (res.status === 409) return { outcome: "duplicate" };
      if (isSuccess(res.status) || res.status === 400) {
        const said = readErrorBody(res.text, redact);
        if (DUPLICATE_TEXT.test(`${said.error ?? ""} ${said.message ?? ""}`)) return { outcome: "duplicate" };
        if (isSuccess(res.status)) return { outcome: "stored" };
      }
      throw errorForStatus(call, res, redact);
    },

    /** Version 2: creates or updates the order and returns the stored record. */
    createOrderV2(order: admin.OrderV2, opts?: CallOptions): Promise<admin.OrderRecord> {
      const ep = { api: A, method: "POST" as const, segments: ["orders"], options: opts };
      const body = check(admin.orderV2Schema, order, ep);
      return json({ ...ep, body: { ...body, version: 2 } }, admin.orderRecordSchema);
    },

    async updateOrder(orderId: string, update: admin.OrderUpdate, opts?: CallOptions): Promise<void> {
      const ep = { api: A, method: "PUT" as const, segments: ["orders", orderId], options: opts };
      return noBody({ ...ep, body: check(admin.orderUpdateSchema, update, ep) });
    },

    /** 1 to 200 products; per-item failures come back in `errors`, not as exceptions. */
    async sendCatalogBatch(products: admin.CatalogProduct[], opts?: CallOptions): Promise<admin.CatalogBatchResult> {
      const ep = { api: A, method: "POST" as const, segments: ["products", "batch"], options: opts };
      const body = check(admin.catalogBatchBodySchema, { products }, ep);
      if (validate) {
        const bytes = Buffer.byteLength(JSON.stringify(body));
        if (bytes > admin.CATALOG_BATCH_MAX_BYTES) {
          throw new ReviewsPermanentError(`Catalog batch of ${bytes} bytes refused by the client`, {
            request: locate(ep).info,
            status: null,
            reason: "too_large",
          });
        }
      }
      return json({ ...ep, body }, admin.catalogBatchResultSchema);
    },

    /** Same rules as a one-item batch, but failures are HTTP errors (400). */
    async updateProduct(sku: string, fields: admin.ProductUpdate, opts?: CallOptions): Promise<admin.ProductRecord> {
      const ep = { api: A, method: "PUT" as const, segments: ["products", sku], options: opts };
      return json({ ...ep, body: check(admin.productUpdateSchema, fields, ep) }, admin.productRecordSchema);
    },

    async listReviews(query: admin.ReviewsListQuery = {}, opts?: CallOptions): Promise<admin.ReviewsList> {
      const ep = { api: A, method: "GET" as const, segments: ["reviews", "all"], options: opts };
      return json({ ...ep, query: check(admin.reviewsListQuerySchema, query, ep) }, admin.reviewsListResponseSchema);
    },

    /** `POST reviews/all`: the list query plus `categories`/`sentiment` in the body. */
    async searchReviews(
      query: admin.ReviewsListQuery = {},
      body: admin.ReviewsSearchBody = {},
      opts?: CallOptions,
    ): Promise<admin.ReviewsList> {
      const ep = { api: A, method: "POST" as const, segments: ["reviews", "all"], options: opts };
      return json(
        {
          ...ep,
          query: check(admin.reviewsListQuerySchema, query, ep),
          body: check(admin.reviewsSearchBodySchema, body, ep),
        },
        admin.reviewsListResponseSchema,
      );
    },

    async listQuestions(query: admin.QuestionsListQuery = {}, opts?: CallOptions): Promise<admin.QuestionsList> {
      const ep = { api: A, method: "GET" as const, segments: ["questions", "all"], options: opts };
      return json(
        { ...ep, query: check(admin.questionsListQuerySchema, query, ep) },
        admin.questionsListResponseSchema,
      );
    },

    /** Accepts `result` or `results` from the service; always returns `results`. */
    async listNpsResponses(query: admin.NpsListQuery = {}, opts?: CallOptions): Promise<admin.NpsList> {
      const ep = { api: A, method: "GET" as const, segments: ["nps", "responses"], options: opts };
      return json({ ...ep, query: check(admin.npsListQuerySchema, query, ep) }, admin.npsListResponseSchema);
    },

    async getProductReport(query: admin.ProductReportQuery = {}, opts?: CallOptions): Promise<admin.ProductReport> {
      const ep = { api: A, method: "GET" as const, segments: ["products", "report"], options: opts };
      return json(
        { ...ep, query: check(admin.productReportQuerySchema, query, ep) },
        admin.productReportResponseSchema,
      );
    },

    async moderateReview(reviewId: string, approved: boolean, opts?: CallOptions): Promise<void> {
      const ep = { api: A, method: "PUT" as const, segments: ["reviews", reviewId, "moderate"], options: opts };
      return noBody({ ...ep, body: check(admin.moderateBodySchema, { approved }, ep) });
    },

    async listProductGroups(
      query: admin.ProductGroupsListQuery = {},
      opts?: CallOptions,
    ): Promise<admin.ProductGroupsList> {
      const ep = { api: A, method: "GET" as const, segments: ["products", "groups", "all"], options: opts };
      return json(
        { ...ep, query: check(admin.productGroupsListQuerySchema, query, ep) },
        admin.productGroupsListResponseSchema,
      );
    },

    async getProductGroup(groupId: string, opts?: CallOptions): Promise<admin.ProductGroup> {
      return json(
        { api: A, method: "GET", segments: ["products", "groups", groupId], options: opts },
        admin.productGroupSchema,
      );
    },

    /** 409 → ReviewsPermanentError with `conflictingSkus`. */
    async createProductGroup(group: admin.ProductGroupBody, opts?: CallOptions): Promise<admin.ProductGroup> {
      const ep = { api: A, method: "POST" as const, segments: ["products", "groups"], options: opts };
      return json({ ...ep, body: check(admin.productGroupBodySchema, group, ep) }, admin.productGroupSchema);
    },

    /** 409 → ReviewsPermanentError with `conflictingSkus`. */
    async updateProductGroup(
      groupId: string,
      group: admin.ProductGroupBody,
      opts?: CallOptions,
    ): Promise<admin.ProductGroup> {
      const ep = { api: A, method: "PUT" as const, segments: ["products", "groups", groupId], options: opts };
      return json({ ...ep, body: check(admin.productGroupBodySchema, group, ep) }, admin.productGroupSchema);
    },

    async deleteProductGroup(groupId: string, opts?: CallOptions): Promise<void> {
      return noBody({ api: A, method: "DELETE", segments: ["products", "groups", groupId], options: opts });
    },
  };

  // ---- Client (storefront) API ------------------------------------------------------------------

  const reviewPath = (sku: string, reviewId: string, ...rest: string[]): Segment[] => [
    sku,
    "review",
    reviewId,
    ...rest,
  ];

  const storefrontApi = {
    /** Aggregates of several products in one call; SKUs cannot contain `,` (the list separator). */
    async getRatings(skus: string[], opts?: CallOptions): Promise<sf.RatingEntry[]> {
      const ep = { api: S, method: "GET" as const, segments: ["ratings"], options: opts };
      if (validate && (skus.length === 0 || skus.some((s) => s === "" || s.includes(",")))) {
        throw invalidRequest(locate(ep).info, "skus: one or more non-empty SKUs without commas");
      }
      return json({ ...ep, query: { skus: skus.join(",") } }, sf.ratingsResponseSchema);
    },

    /** One page of a product's reviews; the sort segment is always sent (default helpfulScore,desc). */
    async getSummary(sku: string, options: sf.SummaryOptions = {}, opts?: CallOptions): Promise<sf.SummaryResponse> {
      const sortField = options.sortField ?? "helpfulScore";
      const sortOrder = options.sortOrder ?? "desc";
      const base = { api: S, method: "GET" as const, options: opts };
      const o = check(sf.summaryOptionsSchema, options, { ...base, segments: [sku, "summary"] });
      const join = (v: string | number | (string | number)[] | undefined, sep: string) =>
        Array.isArray(v) ? v.join(sep) : v;
      return json(
        {
          ...base,
          segments: [sku, "summary", { literal: `${encodeURIComponent(sortField)},${encodeURIComponent(sortOrder)}` }],
          query: {
            page: o.page,
            pageSize: o.pageSize,
            filterMedia: o.filterMedia,
            hasText: o.hasText,
            sourceStore: join(o.sourceStore, ";"),
            verified: o.verified,
            rating: join(o.rating, ","),
            topics: join(o.topics, ";"),
          },
        },
        sf.summaryResponseSchema,
      );
    },

    /** Identify the reviewer by userId + email, or verificationTokenId + orderId (verified purchase). */
    async submitReview(sku: string, review: sf.ReviewSubmission, opts?: CallOptions): Promise<sf.SubmittedReview> {
      const ep = { api: S, method: "POST" as const, segments: [sku, "review"], options: opts };
      return json({ ...ep, body: check(sf.reviewSubmissionSchema, review, ep) }, sf.submittedReviewSchema);
    },

    async presignPictures(
      sku: string,
      reviewId: string,
      body: sf.MediaPresignBody,
      opts?: CallOptions,
    ): Promise<sf.PicturesPresign> {
      const ep = {
        api: S,
        method: "POST" as const,
        segments: reviewPath(sku, reviewId, "pictures", "presign"),
        options: opts,
      };
      return json({ ...ep, body: check(sf.mediaPresignBodySchema, body, ep) }, sf.picturesPresignResponseSchema);
    },

    async confirmPictures(
      sku: string,
      reviewId: string,
      body: sf.PicturesConfirmBody,
      opts?: CallOptions,
    ): Promise<unknown> {
      const ep = {
        api: S,
        method: "POST" as const,
        segments: reviewPath(sku, reviewId, "pictures", "confirm"),
        options: opts,
      };
      return anyBody({ ...ep, body: check(sf.picturesConfirmBodySchema, body, ep) });
    },

    async presignVideo(
      sku: string,
      reviewId: string,
      body: sf.MediaPresignBody,
      opts?: CallOptions,
    ): Promise<sf.PresignedUpload> {
      const ep = {
        api: S,
        method: "POST" as const,
        segments: reviewPath(sku, reviewId, "video", "presign"),
        options: opts,
      };
      return json({ ...ep, body: check(sf.mediaPresignBodySchema, body, ep) }, sf.presignedUploadSchema);
    },

    async confirmVideo(sku: string, reviewId: string, body: sf.VideoConfirmBody, opts?: CallOptions): Promise<unknown> {
      const ep = {
        api: S,
        method: "POST" as const,
        segments: reviewPath(sku, reviewId, "video", "confirm"),
        options: opts,
      };
      return anyBody({ ...ep, body: check(sf.videoConfirmBodySchema, body, ep) });
    },

    /**
     * Step 2 of a media upload: PUT the file to the presigned `uploadUrl` (object storage, no auth).
     * A relative URL is resolved against the API base. The log path leaves out the query (signature).
     */
    async uploadFile(
      args: { uploadUrl: string; mimeType: string; body: Uint8Array | string },
      opts?: CallOptions,
    ): Promise<void> {
      const url = new URL(args.uploadUrl, `${apiUrl}/`);
      const info: ReviewsRequestInfo = { api: "upload" satisfies ReviewsApi, method: "PUT", path: url.pathname };
      const call: HttpCall = {
        request: info,
        url: url.toString(),
        headers: { "content-type": args.mimeType },
        body: args.body,
        timeoutMs: opts?.timeoutMs ?? timeoutMs,
        signal: opts?.signal,
      };
      const res = await send(fetchFn, logger, call);
      if (!isSuccess(res.status)) throw errorForStatus(call, res, redact);
    },

    async sendAttributes(sku: string, reviewId: string, body: sf.AttributesBody, opts?: CallOptions): Promise<unknown> {
      const ep = { api: S, method: "POST" as const, segments: reviewPath(sku, reviewId, "attributes"), options: opts };
      return anyBody({ ...ep, body: check(sf.attributesBodySchema, body, ep) });
    },

    async likeReview(
      sku: string,
      reviewId: string,
      who: sf.UserIdentity,
      opts?: CallOptions,
    ): Promise<sf.HelpfulnessResult> {
      const ep = { api: S, method: "POST" as const, segments: reviewPath(sku, reviewId, "like"), options: opts };
      return json({ ...ep, body: check(sf.userIdentitySchema, who, ep) }, sf.helpfulnessResponseSchema);
    },

    async dislikeReview(
      sku: string,
      reviewId: string,
      who: sf.UserIdentity,
      opts?: CallOptions,
    ): Promise<sf.HelpfulnessResult> {
      const ep = { api: S, method: "POST" as const, segments: reviewPath(sku, reviewId, "dislike"), options: opts };
      return json({ ...ep, body: check(sf.userIdentitySchema, who, ep) }, sf.helpfulnessResponseSchema);
    },

    async getStoreReviewsSummary(opts?: CallOptions): Promise<sf.StoreReviewsSummary> {
      return json(
        { api: S, method: "GET", segments: ["store-reviews", "summary"], options: opts },
        sf.storeReviewsSummarySchema,
      );
    },

    /** `sort`: field and direction (1 ascending, -1 descending); default created,-1. */
    async listPublishedStoreReviews(
      sort: { field: z.infer<typeof sf.storeReviewSortFieldSchema>; direction: 1 | -1 } = {
        field: "created",
        direction: -1,
      },
      opts?: CallOptions,
    ): Promise<sf.StoreReviewsPublished> {
      const ep = { api: S, method: "GET" as const, segments: ["store-reviews", "published"], options: opts };
      const field = check(sf.storeReviewSortFieldSchema, sort.field, ep);
      if (validate && sort.direction !== 1 && sort.direction !== -1)
        throw invalidRequest(locate(ep).info, "direction: 1 or -1");
      return json(
        {
          ...ep,
          segments: ["store-reviews", "published", { literal: `${encodeURIComponent(field)},${sort.direction}` }],
        },
        sf.storeReviewsPublishedResponseSchema,
      );
    },

    async getStoreReviewsCarousel(opts?: CallOptions): Promise<sf.StoreReview[]> {
      return json(
        { api: S, method: "GET", segments: ["store-reviews", "carousel"], options: opts },
        sf.storeReviewsCarouselResponseSchema,
      );
    },

    /** All questions of a product with replies; no pagination. */
    async getQuestions(sku: string, opts?: CallOptions): Promise<sf.StorefrontQuestion[]> {
      return json(
        { api: S, method: "GET", segments: [sku, "questions"], options: opts },
        sf.storefrontQuestionsResponseSchema,
      );
    },

    async askQuestion(sku: string, question: sf.QuestionBody, opts?: CallOptions): Promise<unknown> {
      const ep = { api: S, method: "POST" as const, segments: [sku, "question"], options: opts };
      return anyBody({ ...ep, body: check(sf.questionBodySchema, question, ep) });
    },

    async getTopRated(opts?: CallOptions): Promise<sf.TopRated> {
      return json(
        { api: S, method: "GET", segments: ["top-rated", "active"], options: opts },
        sf.topRatedResponseSchema,
      );
    },

    /** 404 (ReviewsPermanentError reason not_found) when the order is not the user's. */
    async findOrder(query: sf.OrderFindBody, opts?: CallOptions): Promise<sf.OrderFindResult> {
      const ep = { api: S, method: "POST" as const, segments: ["orders", "find"], options: opts };
      return json({ ...ep, body: check(sf.orderFindBodySchema, query, ep) }, sf.orderFindResponseSchema);
    },

    async getOrderReviewStatus(
      verificationTokenId: string,
      orderId: string,
      opts?: CallOptions,
    ): Promise<sf.OrderReviewStatus> {
      return json(
        { api: S, method: "GET", segments: ["orders", { secret: verificationTokenId }, orderId], options: opts },
        sf.orderReviewStatusResponseSchema,
      );
    },

    /** Up to 20 orders; orders that are not the user's are silently absent from the answer. */
    async findOrdersBatch(query: sf.OrderFindBatchBody, opts?: CallOptions): Promise<sf.OrderFindBatchResult> {
      const ep = { api: S, method: "POST" as const, segments: ["orders", "find-batch"], options: opts };
      return json({ ...ep, body: check(sf.orderFindBatchBodySchema, query, ep) }, sf.orderFindBatchResponseSchema);
    },
  };

  return {
    account: { customer: account.customer, apiUrl, authUrl: account.authUrl, rateUrl: account.rateUrl },
    admin: adminApi,
    storefront: storefrontApi,

    /** The rating page of an order for this account. Pure. */
    ratePageUrl(params: Omit<sf.RatePageParams, "rateUrl" | "customer">): string {
      return ratePageUrl({ ...params, rateUrl: account.rateUrl, customer: account.customer });
    },

    /**
     * Asks the token endpoint directly, bypassing the cache: checks credentials before they are
     * saved. Throws ReviewsAuthError when they are refused.
     */
    async verifyCredentials(): Promise<{ expiresIn: number }> {
      const t = await tokens.request();
      return { expiresIn: t.expiresIn };
    },
  };
}

export type ReviewsClient = ReturnType<typeof createReviewsClient>;
export type ReviewsAdminApi = ReviewsClient["admin"];
export type ReviewsStorefrontApi = ReviewsClient["storefront"];
