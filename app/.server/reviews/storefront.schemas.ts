import { z } from "zod";

// zod schemas of the Client (storefront) API (the service's "Client API of the reviews service";
// docs/reviews-service.md). Same policy as
// admin.schemas.ts: strict requests, loose responses with the fields the connector uses required.

const str = z.string();
const optStr = z.string().optional();
const optBool = z.boolean().optional();
const count = z.number().int().min(0);

// ---------------------------------------------------------------------------------------------
// Ratings

export const ratingEntrySchema = z.looseObject({
  sku: str,
  aggregateRating: z.number(),
  reviewCount: count,
  recommended: z.number().optional(),
  recommendedPercentage: z.number().optional(),
  // "absent for products with no published review"
  product: z.looseObject({ image: str.nullish(), name: str.nullish(), url: str.nullish() }).nullish(),
});
export type RatingEntry = z.infer<typeof ratingEntrySchema>;
export const ratingsResponseSchema = z.array(ratingEntrySchema);

// ---------------------------------------------------------------------------------------------
// Summary (reviews of one product)

export const summarySortFieldSchema = z.enum(["helpfulScore", "created", "rating", "helpful"]);
export type SummarySortField = z.infer<typeof summarySortFieldSchema>;

export const summaryOptionsSchema = z.strictObject({
  /** Default `helpfulScore`; the path segment is always sent explicitly. */
  sortField: summarySortFieldSchema.optional(),
  /** Default `desc`. The service treats any other value as `desc`, so only these two are offered. */
  sortOrder: z.enum(["asc", "desc"]).optional(),
  page: z.int().min(1).optional(),
  pageSize: z.int().min(1).optional(),
  filterMedia: z.enum(["pictures", "videos", "any", "none"]).optional(),
  hasText: optBool,
  /** Several are joined with `;`. */
  sourceStore: z.union([str, z.array(str)]).optional(),
  verified: optBool,
  /** Several are joined with `,`. */
  rating: z.union([z.int().min(1).max(5), z.array(z.int().min(1).max(5))]).optional(),
  /** Several are joined with `;`. */
  topics: z.union([str, z.array(str)]).optional(),
});
export type SummaryOptions = z.infer<typeof summaryOptionsSchema>;

export const storefrontReviewSchema = z.looseObject({
  _id: str,
  sku: optStr,
  name: str.nullish(),
  text: str.nullish(),
  customer: optStr,
  status: optStr,
  rating: z.number(),
  helpful: z.number().optional(),
  unhelpful: z.number().optional(),
  verified: optBool,
  recommended: z.boolean().nullish(),
  created: optStr,
  updated: str.nullish(),
  pictures: z.array(z.looseObject({ url: str })).nullish(),
  video: z.looseObject({}).nullish(),
  attributes: z.array(z.looseObject({})).nullish(),
  reply: z.looseObject({}).nullish(),
  productReviewed: z.looseObject({}).nullish(),
});
export type StorefrontReview = z.infer<typeof storefrontReviewSchema>;

export const summaryAggregateSchema = z.looseObject({
  _id: str,
  aggregateRating: z.number(),
  reviewCount: count,
  recommendedPercentage: z.number().nullish(),
  textReviews: count.optional(),
  pictureReviews: count.optional(),
  videoReviews: count.optional(),
  mediaReviews: count.optional(),
  verifiedReviews: count.optional(),
  attributes: z.array(z.looseObject({})).optional(),
  reviews: z.array(storefrontReviewSchema).default([]),
});

export const summaryResponseSchema = z.looseObject({
  // One aggregate entry; empty for a product with no published review.
  reviews: z.array(summaryAggregateSchema),
  composition: z.array(z.looseObject({ _id: z.number(), count })).optional(),
  customerSettings: z.looseObject({}).nullish(),
  sourceStores: z.array(z.looseObject({})).optional(),
  syndicationSources: z.array(str).optional(),
  topicCounts: z.array(z.looseObject({ name: str, count })).optional(),
  product: z.looseObject({}).nullish(),
});
export type SummaryResponse = z.infer<typeof summaryResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Review submission and its follow-ups

export const reviewSubmissionSchema = z
  .strictObject({
    userId: optStr,
    email: optStr,
    verificationTokenId: optStr,
    orderId: optStr,
    rating: z.int().min(1).max(5),
    text: optStr,
    recommended: optBool,
    /** Standard: email, sms, whatsapp, sdk, web; any string accepted. */
    source: optStr,
  })
  .refine((b) => !b.verificationTokenId || !!b.orderId, {
    message: "orderId is required when verificationTokenId is sent",
    path: ["orderId"],
  })
  .refine((b) => (!!b.userId && !!b.email) || (!!b.verificationTokenId && !!b.orderId), {
    message: "identify the reviewer with userId + email or verificationTokenId + orderId",
    path: ["userId"],
  });
export type ReviewSubmission = z.infer<typeof reviewSubmissionSchema>;

export const submittedReviewSchema = z.looseObject({
  _id: str,
  status: str,
  updateToken: str,
  sku: optStr,
  created: optStr,
  customer: optStr,
  userId: str.nullish(),
  name: str.nullish(),
  text: str.nullish(),
  recommended: z.boolean().nullish(),
  rating: z.number().optional(),
  verified: optBool,
  helpful: z.number().optional(),
  unhelpful: z.number().optional(),
  availableAttributes: z
    .array(
      z.looseObject({
        _id: str,
        title: str.nullish(),
        type: optStr,
        choices: z.array(str).nullish(),
        categories: z.array(str).nullish(),
      }),
    )
    .optional(),
});
export type SubmittedReview = z.infer<typeof submittedReviewSchema>;

export const mediaPresignBodySchema = z.strictObject({
  updateToken: str.min(1),
  mimeType: str.min(1),
  fileSize: z.int().positive(),
});
export type MediaPresignBody = z.infer<typeof mediaPresignBodySchema>;

export const presignedUploadSchema = z.looseObject({
  uploadUrl: str,
  confirmUrl: optStr,
  fileKey: str,
});
export type PresignedUpload = z.infer<typeof presignedUploadSchema>;

export const picturesPresignResponseSchema = z.looseObject({ urls: z.array(presignedUploadSchema) });
export type PicturesPresign = z.infer<typeof picturesPresignResponseSchema>;

export const picturesConfirmBodySchema = z.strictObject({
  updateToken: str.min(1),
  keys: z.array(str.min(1)).min(1),
});
export type PicturesConfirmBody = z.infer<typeof picturesConfirmBodySchema>;

export const videoConfirmBodySchema = z.strictObject({ updateToken: str.min(1), key: str.min(1) });
export type VideoConfirmBody = z.infer<typeof videoConfirmBodySchema>;

export const attributesBodySchema = z.strictObject({
  updateToken: str.min(1),
  attributes: z
    .array(
      z.strictObject({
        _id: str.min(1),
        // 1 to 5 for stars; zero-based answer index for multiple-choice.
        value: z.int().min(0),
        response: optStr,
      }),
    )
    .min(1),
});
export type AttributesBody = z.infer<typeof attributesBodySchema>;

export const userIdentitySchema = z.strictObject({ userId: str.min(1), email: str.min(1) });
export type UserIdentity = z.infer<typeof userIdentitySchema>;

export const helpfulnessResponseSchema = z.looseObject({
  _id: str,
  helpful: z.number(),
  unhelpful: z.number(),
});
export type HelpfulnessResult = z.infer<typeof helpfulnessResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Store reviews

export const storeReviewSchema = z.looseObject({
  _id: str,
  rating: z.number(),
  created: optStr,
  customer: optStr,
  text: str.nullish(),
  name: str.nullish(),
});
export type StoreReview = z.infer<typeof storeReviewSchema>;

export const storeReviewsSummarySchema = z.array(
  z.looseObject({
    _id: str,
    count,
    avgRating: z.number().nullable(),
    enableStoreReview: optBool,
  }),
);
export type StoreReviewsSummary = z.infer<typeof storeReviewsSummarySchema>;

export const storeReviewSortFieldSchema = z.enum(["created", "sku", "rating", "helpful", "unhelpful"]);
export const storeReviewsPublishedResponseSchema = z.looseObject({ results: z.array(storeReviewSchema) });
export type StoreReviewsPublished = z.infer<typeof storeReviewsPublishedResponseSchema>;
export const storeReviewsCarouselResponseSchema = z.array(storeReviewSchema);

// ---------------------------------------------------------------------------------------------
// Questions

export const storefrontQuestionSchema = z.looseObject({
  _id: str,
  status: optStr,
  created: optStr,
  name: str.nullish(),
  text: str.nullish(),
  reply: z.looseObject({}).nullish(),
});
export type StorefrontQuestion = z.infer<typeof storefrontQuestionSchema>;
export const storefrontQuestionsResponseSchema = z.array(storefrontQuestionSchema);

export const questionBodySchema = z.strictObject({
  userId: str.min(1),
  email: str.min(1),
  text: str.min(1),
  /** Not in the documented body: a guest's own name, sent for a service that shows it (docs/reviews-service.md). */
  name: str.min(1).optional(),
});
export type QuestionBody = z.infer<typeof questionBodySchema>;

// ---------------------------------------------------------------------------------------------
// Top rated

export const topRatedResponseSchema = z.looseObject({
  skus: z.array(str),
  badgeLabel: str.nullish(),
});
export type TopRated = z.infer<typeof topRatedResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Order review status

export const FIND_BATCH_MAX_ORDERS = 20;

export const orderFindBodySchema = z
  .strictObject({ orderId: str.min(1), email: optStr, userId: optStr })
  .refine((b) => !!b.email || !!b.userId, { message: "send email or userId", path: ["email"] });
export type OrderFindBody = z.infer<typeof orderFindBodySchema>;

export const orderFindResponseSchema = z.looseObject({ verificationTokenId: str, orderId: str });
export type OrderFindResult = z.infer<typeof orderFindResponseSchema>;

export const orderProductStatusSchema = z.looseObject({
  sku: str,
  // true = not yet reviewed
  active: z.boolean(),
  review: z
    .looseObject({ rating: z.number().optional(), text: str.nullish(), created: str.nullish() })
    .nullish()
    .transform((r) => r ?? null),
  product: z.looseObject({}).nullish(),
});
export type OrderProductStatus = z.output<typeof orderProductStatusSchema>;

export const orderReviewStatusResponseSchema = z.looseObject({ products: z.array(orderProductStatusSchema) });
export type OrderReviewStatus = z.output<typeof orderReviewStatusResponseSchema>;

// Whether `email` or `userId` is mandatory here is "not shown": both optional.
export const orderFindBatchBodySchema = z.strictObject({
  orderIds: z.array(str.min(1)).min(1).max(FIND_BATCH_MAX_ORDERS),
  email: optStr,
  userId: optStr,
});
export type OrderFindBatchBody = z.infer<typeof orderFindBatchBodySchema>;

export const orderFindBatchResponseSchema = z.looseObject({
  orders: z.array(
    z.looseObject({
      orderId: str,
      verificationTokenId: str,
      products: z.array(orderProductStatusSchema),
      // Shape of the elements: not shown.
      sellers: z.array(z.unknown()).optional(),
    }),
  ),
});
export type OrderFindBatchResult = z.output<typeof orderFindBatchResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Rating page

export const ratePageParamsSchema = z.strictObject({
  rateUrl: z.url(),
  customer: str.min(1),
  verificationTokenId: str.min(1),
  orderId: str.min(1),
  sku: str.min(1).optional(),
  ratingClicked: z.int().min(1).max(5).optional(),
  embedded: optBool,
  source: str.min(1).optional(),
});
export type RatePageParams = z.infer<typeof ratePageParamsSchema>;
