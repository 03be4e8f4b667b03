// Strict mode: every successful answer of the Admin and Client API carries only the fields the
// service's two documents name for it ("Resources and their fields" and each endpoint's
// "Response"), so the app is proved against exactly what the service promises. Fields the emulator
// adds for its own convenience (`moderatedAt`, `updated`, `topics`, `reply` on the admin review, ...)
// vanish. An answer whose body the spec leaves "not shown" becomes `{}`. Error bodies are left as
// they are (the spec documents a few and says "not shown" for the rest). On with the `strict`
// option of startEmulator, `EMULATOR_STRICT=1`, or `--strict` on the command line.

import type { Reply } from "./http";

/** `true`: the value as it is (scalars, maps, opaque arrays); an object: those keys only; `[shape]`: each element. */
export type Shape = true | { readonly [key: string]: Shape } | readonly [Shape];

export function project(value: unknown, shape: Shape): unknown {
  if (shape === true || value === null || value === undefined) return value;
  if (Array.isArray(shape)) return Array.isArray(value) ? value.map((v) => project(v, shape[0])) : value;
  if (typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(shape)) {
    if (key in value) out[key] = project((value as Record<string, unknown>)[key], sub as Shape);
  }
  return out;
}

const fields = (...names: string[]): Record<string, true> => Object.fromEntries(names.map((n) => [n, true]));

// ------------------------------------------------------------------------------------------------
// Admin API ("Admin API of the reviews service")

const token = fields("access_token", "expires_in", "token_type");

const orderRecord = fields(
  "_id",
  "customer",
  "orderId",
  "userId",
  "name",
  "createdDate",
  "authorizedDate",
  "email",
  "phone",
  "status",
  "optOutEmail",
  "optOutSMS",
  "optOutWhatsApp",
  "__v",
);

const batchResult = {
  ...fields("received", "processed", "created", "updated", "unchanged", "failed"),
  errors: [fields("index", "sku", "error")],
} as const;

const productRecord = fields(
  "_id",
  "customer",
  "sku",
  "name",
  "brand",
  "categories",
  "url",
  "image",
  "variants",
  "modified",
);

/** Review (as returned to the administrator), with the `includeOrderData` fields (present only when asked). */
const adminReview = {
  ...fields(
    "_id",
    "customer",
    "userId",
    "name",
    "sku",
    "text",
    "source",
    "status",
    "rating",
    "helpful",
    "unhelpful",
    "verified",
    "recommended",
    "moderationTags",
    "created",
    "__v",
  ),
  pictures: [fields("_id", "url")],
  attributes: [fields("_id", "title", "type", "scaleMin", "scaleMax", "value")],
  product: {
    ...fields("_id", "customer", "sku", "name", "categories", "url", "image", "brand", "mpn", "gtin"),
    specifications: [fields("name", "value")],
  },
  ...fields("orderId", "orderName", "orderEmail", "orderPhone", "variantSku", "variantName"),
  sellerInfo: fields("id", "name"),
} as const;

const adminQuestion = {
  ...fields("_id", "status", "created", "customer", "sku", "name", "text", "email", "__v"),
  reply: fields("unhelpful", "helpful", "created", "text"),
  product: fields(
    "_id",
    "sku",
    "customer",
    "brand",
    "categories",
    "image",
    "isKit",
    "modified",
    "name",
    "url",
    "variants",
    "status",
    "sumRatings",
    "totalReviews",
  ),
} as const;

const npsResponse = fields(
  "_id",
  "customer",
  "surveyId",
  "requestId",
  "name",
  "phone",
  "orderId",
  "rating",
  "comment",
  "partial",
  "created",
  "sendDate",
  "__v",
);

const reportRow = {
  ...fields("customer", "sku", "name", "categories", "url", "image"),
  reviews: fields(
    "reviewCount",
    "aggregateRating",
    "publishedCount",
    "publishedAggregateRating",
    "withPictures",
    "withVideo",
    "withText",
  ),
} as const;

const group = {
  ...fields("_id", "customer", "name", "skus", "__v"),
  products: [fields("_id", "sku", "name", "brand", "categories", "image", "url", "variants", "customer")],
} as const;

// ------------------------------------------------------------------------------------------------
// Client API ("Client API of the reviews service")

const ratingEntry = {
  product: fields("image", "name", "url"),
  ...fields("sku", "aggregateRating", "recommended", "recommendedPercentage", "reviewCount"),
} as const;

const clientReview = {
  ...fields(
    "_id",
    "sku",
    "name",
    "text",
    "customer",
    "status",
    "rating",
    "helpful",
    "unhelpful",
    "verified",
    "recommended",
    "created",
    "updated",
    "hasPicture",
    "hasVideo",
    "helpfulScore",
  ),
  pictures: [fields("_id", "url", "thumb")],
  // `fileName`, `fileKey`, `converted`: "the sample also shows".
  video: fields("url", "thumb", "fileName", "fileKey", "converted"),
  attributes: [fields("title", "value", "type", "response", "scaleMin", "scaleMax")],
  reply: fields("created", "text", "helpful", "unhelpful"),
  productReviewed: fields("sku", "name", "url"),
  ...fields(
    "syndicationSourceCustomer",
    "syndicationDisplaySource",
    "syndicationSourceLogo",
    "syndicationSourceProductUrl",
    "syndicationOriginalText",
  ),
} as const;

const summary = {
  reviews: [
    {
      ...fields(
        "_id",
        "aggregateRating",
        "recommendedPercentage",
        "reviewCount",
        "textReviews",
        "pictureReviews",
        "videoReviews",
        "mediaReviews",
        "verifiedReviews",
      ),
      attributes: [fields("_id", "description", "avg", "type", "choices", "scaleMin", "scaleMax", "appliesTo")],
      reviews: [clientReview],
    },
  ],
  composition: [fields("_id", "count")],
  customerSettings: fields("minStarsHighlightPDP"),
  sourceStores: [fields("customer", "name", "logo")],
  syndicationSources: true,
  topicCounts: [fields("name", "count")],
  product: fields(
    "categories",
    "brand",
    "name",
    "aiSummaryProcessed",
    "aiSummaryText",
    "aiSummaryTopics",
    "image",
    "url",
    "isKit",
    "modified",
    "status",
    "variants",
    "variantIds",
    "eans",
    "sumRatings",
    "totalReviews",
  ),
} as const;

const submittedReview = {
  ...fields(
    "_id",
    "status",
    "created",
    "customer",
    "userId",
    "name",
    "sku",
    "text",
    "recommended",
    "rating",
    "verified",
    "helpful",
    "unhelpful",
    "updateToken",
  ),
  availableAttributes: [
    fields("_id", "title", "description", "order", "type", "categories", "choices", "customer", "__v"),
  ],
} as const;

/** like/dislike: "the review record with updated helpful and unhelpful counts" (no update token). */
const votedReview = fields(
  "_id",
  "status",
  "created",
  "customer",
  "userId",
  "name",
  "sku",
  "text",
  "recommended",
  "rating",
  "verified",
  "helpful",
  "unhelpful",
);

const presigned = fields("uploadUrl", "confirmUrl", "fileKey");
const storeReview = fields("_id", "created", "customer", "rating", "text", "name");
const clientQuestion = {
  ...fields("_id", "status", "created", "name", "text"),
  reply: fields("created", "text", "helpful", "unhelpful"),
} as const;
const productStatus = { ...fields("sku", "active"), review: fields("rating", "text", "created") } as const;

/** "Response body: not shown": nothing the app could come to rely on. */
const NOT_SHOWN = {} as const;

/** Documented answer per route (`METHOD pattern`, as the emulator's routes name them). */
export const DOCUMENTED_ANSWERS: Readonly<Record<string, Shape>> = {
  "POST /auth/oauth/token": token,
  "POST /api/:customer/orders": orderRecord,
  "POST /api/:customer/products/batch": batchResult,
  "PUT /api/:customer/products/:sku": productRecord,
  "PUT /api/:customer/orders/:orderId": NOT_SHOWN,
  "GET /api/:customer/rating-link/:orderId": fields("link"),
  "GET /api/:customer/reviews/all": { results: [adminReview], total: true },
  "POST /api/:customer/reviews/all": { results: [adminReview], total: true },
  "GET /api/:customer/questions/all": { results: [adminQuestion], total: true },
  // The sample names the array `result`, the field table `results`: either is documented.
  "GET /api/:customer/nps/responses": { results: [npsResponse], result: [npsResponse], total: true },
  "GET /api/:customer/products/report": { result: [reportRow], total: true },
  "GET /api/:customer/products/groups/all": { result: [group], total: true },
  "GET /api/:customer/products/groups/:id": group,
  "POST /api/:customer/products/groups": group,
  "PUT /api/:customer/products/groups/:id": group,
  "DELETE /api/:customer/products/groups/:id": NOT_SHOWN,
  "PUT /api/:customer/reviews/:id/moderate": NOT_SHOWN,

  "GET /api/:customer/ratings": [ratingEntry],
  "GET /api/:customer/:sku/summary": summary,
  "GET /api/:customer/:sku/summary/:sort": summary,
  "POST /api/:customer/:sku/review": submittedReview,
  "POST /api/:customer/:sku/review/:reviewId/pictures/presign": { urls: [presigned] },
  "POST /api/:customer/:sku/review/:reviewId/pictures/confirm": NOT_SHOWN,
  "POST /api/:customer/:sku/review/:reviewId/video/presign": presigned,
  "POST /api/:customer/:sku/review/:reviewId/video/confirm": NOT_SHOWN,
  "POST /api/:customer/:sku/review/:reviewId/attributes": NOT_SHOWN,
  "POST /api/:customer/:sku/review/:reviewId/like": votedReview,
  "POST /api/:customer/:sku/review/:reviewId/dislike": votedReview,
  "GET /api/:customer/store-reviews/summary": [fields("_id", "count", "avgRating", "enableStoreReview")],
  "GET /api/:customer/store-reviews/published": { results: [storeReview] },
  "GET /api/:customer/store-reviews/published/:sort": { results: [storeReview] },
  "GET /api/:customer/store-reviews/carousel": [storeReview],
  "GET /api/:customer/:sku/questions": [clientQuestion],
  "POST /api/:customer/:sku/question": NOT_SHOWN,
  "GET /api/:customer/top-rated/active": fields("skus", "badgeLabel"),
  "POST /api/:customer/orders/find": fields("verificationTokenId", "orderId"),
  "GET /api/:customer/orders/:verificationTokenId/:orderId": { products: [productStatus] },
  // The elements of `sellers`: "not shown"; passed as they are.
  "POST /api/:customer/orders/find-batch": {
    orders: [
      {
        ...fields("orderId", "verificationTokenId", "sellers"),
        products: [{ ...productStatus, product: fields("sku", "name", "brand", "mpn", "url", "image") }],
      },
    ],
  },
};

/** The reply as strict mode sends it: the JSON of successful answers cut to the documented fields. */
export function strictReply(route: { method: string; pattern: string }, reply: Reply): Reply {
  const shape = DOCUMENTED_ANSWERS[`${route.method} ${route.pattern}`];
  if (shape === undefined || !("json" in reply) || reply.status < 200 || reply.status >= 300) return reply;
  return { ...reply, json: project(reply.json, shape) };
}
