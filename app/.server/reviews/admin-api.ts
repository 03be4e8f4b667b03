import type { CallOptions } from "./client-options";
import * as lists from "./admin-lists.schemas";
import * as admin from "./admin.schemas";
import { ReviewsPermanentError } from "./errors";
import { errorForStatus, isSuccess, readErrorBody } from "./http";
import type { Transport } from "./transport";

// The Admin API endpoints of the reviews client (token-authenticated, paused after a 429).

/**
 * The rating-link endpoint's method and path are "not shown" in the spec. This form has the shape
 * of no documented route (`/{customer}/orders/{orderId}/rating-link` had that of
 * `GET /{customer}/orders/{verificationTokenId}/{orderId}`, which a service following its
 * documentation would answer as an order-status request); the emulator serves it from this
 * constant. Change it here, nowhere else, when the service says otherwise.
 */
export const RATING_LINK_ROUTE = { method: "GET", path: "/{customer}/rating-link/{orderId}" } as const;

export type CreateOrderV1Result = { outcome: "stored" | "duplicate" };

// A version-1 order that already exists gets a "duplicate outcome" whose form is "not shown":
// any 409, or a 200/400 whose error/message says so, is read as duplicate.
const DUPLICATE_TEXT = /duplicat|already exists/i;

export function createAdminApi(t: Transport) {
  const { check, exchange, json, locate, noBody, redact, validate } = t;
  const A = "admin" as const;

  return {
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

    async listReviews(query: lists.ReviewsListQuery = {}, opts?: CallOptions): Promise<lists.ReviewsList> {
      const ep = { api: A, method: "GET" as const, segments: ["reviews", "all"], options: opts };
      return json({ ...ep, query: check(lists.reviewsListQuerySchema, query, ep) }, lists.reviewsListResponseSchema);
    },

    /** `POST reviews/all`: the list query plus `categories`/`sentiment` in the body. */
    async searchReviews(
      query: lists.ReviewsListQuery = {},
      body: lists.ReviewsSearchBody = {},
      opts?: CallOptions,
    ): Promise<lists.ReviewsList> {
      const ep = { api: A, method: "POST" as const, segments: ["reviews", "all"], options: opts };
      return json(
        {
          ...ep,
          query: check(lists.reviewsListQuerySchema, query, ep),
          body: check(lists.reviewsSearchBodySchema, body, ep),
        },
        lists.reviewsListResponseSchema,
      );
    },

    async listQuestions(query: lists.QuestionsListQuery = {}, opts?: CallOptions): Promise<lists.QuestionsList> {
      const ep = { api: A, method: "GET" as const, segments: ["questions", "all"], options: opts };
      return json(
        { ...ep, query: check(lists.questionsListQuerySchema, query, ep) },
        lists.questionsListResponseSchema,
      );
    },

    /** Accepts `result` or `results` from the service; always returns `results`. */
    async listNpsResponses(query: lists.NpsListQuery = {}, opts?: CallOptions): Promise<lists.NpsList> {
      const ep = { api: A, method: "GET" as const, segments: ["nps", "responses"], options: opts };
      return json({ ...ep, query: check(lists.npsListQuerySchema, query, ep) }, lists.npsListResponseSchema);
    },

    async getProductReport(query: lists.ProductReportQuery = {}, opts?: CallOptions): Promise<lists.ProductReport> {
      const ep = { api: A, method: "GET" as const, segments: ["products", "report"], options: opts };
      return json(
        { ...ep, query: check(lists.productReportQuerySchema, query, ep) },
        lists.productReportResponseSchema,
      );
    },

    async moderateReview(reviewId: string, approved: boolean, opts?: CallOptions): Promise<void> {
      const ep = { api: A, method: "PUT" as const, segments: ["reviews", reviewId, "moderate"], options: opts };
      return noBody({ ...ep, body: check(lists.moderateBodySchema, { approved }, ep) });
    },

    async listProductGroups(
      query: lists.ProductGroupsListQuery = {},
      opts?: CallOptions,
    ): Promise<lists.ProductGroupsList> {
      const ep = { api: A, method: "GET" as const, segments: ["products", "groups", "all"], options: opts };
      return json(
        { ...ep, query: check(lists.productGroupsListQuerySchema, query, ep) },
        lists.productGroupsListResponseSchema,
      );
    },

    async getProductGroup(groupId: string, opts?: CallOptions): Promise<lists.ProductGroup> {
      return json(
        { api: A, method: "GET", segments: ["products", "groups", groupId], options: opts },
        lists.productGroupSchema,
      );
    },

    /** 409 → ReviewsPermanentError with `conflictingSkus`. */
    async createProductGroup(group: lists.ProductGroupBody, opts?: CallOptions): Promise<lists.ProductGroup> {
      const ep = { api: A, method: "POST" as const, segments: ["products", "groups"], options: opts };
      return json({ ...ep, body: check(lists.productGroupBodySchema, group, ep) }, lists.productGroupSchema);
    },

    /** 409 → ReviewsPermanentError with `conflictingSkus`. */
    async updateProductGroup(
      groupId: string,
      group: lists.ProductGroupBody,
      opts?: CallOptions,
    ): Promise<lists.ProductGroup> {
      const ep = { api: A, method: "PUT" as const, segments: ["products", "groups", groupId], options: opts };
      return json({ ...ep, body: check(lists.productGroupBodySchema, group, ep) }, lists.productGroupSchema);
    },

    async deleteProductGroup(groupId: string, opts?: CallOptions): Promise<void> {
      return noBody({ api: A, method: "DELETE", segments: ["products", "groups", groupId], options: opts });
    },
  };
}
