import type { z } from "zod";
import type { CallOptions } from "./client-options";
import type { ReviewsApi, ReviewsRequestInfo } from "./errors";
import { type HttpCall, type Segment, invalidRequest } from "./http";
import * as sf from "./storefront.schemas";
import type { Transport } from "./transport";

// The Client (storefront) API endpoints of the reviews client: what the storefront shows and what
// a shopper sends. The Client API's authentication is "not shown": no token goes with them.

const reviewPath = (sku: string, reviewId: string, ...rest: string[]): Segment[] => [sku, "review", reviewId, ...rest];

export function createStorefrontApi(t: Transport) {
  const { anyBody, apiUrl, check, json, locate, sendPlain, timeoutMs, validate } = t;
  const S = "storefront" as const;

  return {
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
      return sendPlain(call);
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
}
