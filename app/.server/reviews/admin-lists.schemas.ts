import { z } from "zod";
import { REPORT_ORDERS } from "../../shared/report-orders";
import { count, optBool, optStr, skip, str, ymd } from "./schema-parts";

// zod schemas of what the Admin API lists for the merchant's admin pages and the CLI: reviews
// (and their moderation), questions, survey (NPS) responses, the product report and product
// groups. Strict requests, loose responses, as in admin.schemas.ts.

// ---------------------------------------------------------------------------------------------
// Reviews (administrator view)

export const reviewStatusSchema = z.enum(["published", "removed", "filtered", "pending"]);
export type ReviewStatus = z.infer<typeof reviewStatusSchema>;

const reviewOrderFields = ["created", "moderatedAt", "sku", "rating", "helpful", "unhelpful"] as const;
const sortSpec = (fields: readonly string[]) =>
  z
    .string()
    .regex(new RegExp(`^(${fields.join("|")}),(1|-1)$`), `expected field,direction with field in ${fields.join("/")}`);

export const reviewsListQuerySchema = z.strictObject({
  sku: optStr,
  // "omitted or empty means any status"
  status: z.union([reviewStatusSchema, z.literal("")]).optional(),
  order: sortSpec(reviewOrderFields).optional(),
  rating: z.int().min(1).max(5).optional(),
  skip: skip.optional(),
  tags: optStr,
  topics: optStr,
  from: ymd.optional(),
  to: ymd.optional(),
  hasText: optBool,
  hasPicture: optBool,
  hasVideo: optBool,
  hasReply: optBool,
  complete: optBool,
  autoModerated: optBool,
  includeOrderData: optBool,
});
export type ReviewsListQuery = z.infer<typeof reviewsListQuerySchema>;

export const reviewsSearchBodySchema = z.strictObject({
  categories: z.array(str).optional(),
  sentiment: z.enum(["positive", "negative", "neutral"]).optional(),
});
export type ReviewsSearchBody = z.infer<typeof reviewsSearchBodySchema>;

export const adminReviewSchema = z.looseObject({
  _id: str,
  sku: str,
  rating: z.number(),
  status: str,
  customer: optStr,
  userId: str.nullish(),
  name: str.nullish(),
  text: str.nullish(),
  source: str.nullish(),
  helpful: z.number().optional(),
  unhelpful: z.number().optional(),
  verified: optBool,
  recommended: z.boolean().nullish(),
  moderationTags: z.array(z.unknown()).optional(),
  created: optStr,
  pictures: z.array(z.looseObject({ _id: optStr, url: str })).optional(),
  attributes: z.array(z.looseObject({})).optional(),
  product: z.looseObject({ sku: optStr }).nullish(),
  orderId: str.nullish(),
  __v: z.number().optional(),
});
export type AdminReview = z.infer<typeof adminReviewSchema>;

export const reviewsListResponseSchema = z.looseObject({
  results: z.array(adminReviewSchema),
  total: count,
});
export type ReviewsList = z.infer<typeof reviewsListResponseSchema>;

export const moderateBodySchema = z.strictObject({ approved: z.boolean() });

// ---------------------------------------------------------------------------------------------
// Questions

export const questionStatusSchema = z.enum(["published", "removed", "filtered", "sent"]);

export const questionsListQuerySchema = z.strictObject({
  sku: optStr,
  // "omitted or empty: published"; `all` is a query value, not a status.
  status: z.union([questionStatusSchema, z.literal("all"), z.literal("")]).optional(),
  // Allowed values of `order`: not shown, so any string goes.
  order: optStr,
  skip: skip.optional(),
});
export type QuestionsListQuery = z.infer<typeof questionsListQuerySchema>;

export const adminQuestionSchema = z.looseObject({
  _id: str,
  status: optStr,
  created: optStr,
  customer: optStr,
  sku: optStr,
  name: str.nullish(),
  text: str.nullish(),
  email: str.nullish(),
  reply: z.looseObject({}).nullish(),
  product: z.looseObject({}).nullish(),
});
export type AdminQuestion = z.infer<typeof adminQuestionSchema>;

export const questionsListResponseSchema = z.looseObject({
  results: z.array(adminQuestionSchema),
  total: count,
});
export type QuestionsList = z.infer<typeof questionsListResponseSchema>;

// ---------------------------------------------------------------------------------------------
// NPS survey responses

export const npsListQuerySchema = z.strictObject({
  sku: optStr,
  type: z.enum(["all", "promoters", "neutral", "detractors"]).optional(),
  sort: sortSpec(["created", "rating"]).optional(),
  skip: skip.optional(),
  from: ymd.optional(),
  to: ymd.optional(),
});
export type NpsListQuery = z.infer<typeof npsListQuerySchema>;

export const npsResponseSchema = z.looseObject({
  _id: str,
  customer: optStr,
  surveyId: str.nullish(),
  requestId: str.nullish(),
  name: str.nullish(),
  phone: str.nullish(),
  orderId: str.nullish(),
  rating: z.number().nullish(),
  comment: str.nullish(),
  partial: z.boolean().nullish(),
  created: str.nullish(),
  sendDate: str.nullish(),
});
export type NpsResponse = z.infer<typeof npsResponseSchema>;

// The spec's sample names the array `result`, its field table `results`: both are accepted and
// normalised to `results`. When both are present, `results` (the field table) wins.
export const npsListResponseSchema = z
  .looseObject({
    results: z.array(npsResponseSchema).optional(),
    result: z.array(npsResponseSchema).optional(),
    total: count,
  })
  .refine((r) => r.results !== undefined || r.result !== undefined, {
    message: "expected `results` or `result` array",
    path: ["results"],
  })
  .transform(({ result, results, ...rest }) => ({ ...rest, results: results ?? result ?? [] }));
export type NpsList = z.output<typeof npsListResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Product report

// The list lives where the admin's browser code can read it too (nothing under .server can be).
export const productReportOrderSchema = z.enum(REPORT_ORDERS);

export const productReportQuerySchema = z.strictObject({
  order: productReportOrderSchema.optional(),
  limit: z.int().min(1).optional(),
  skip: skip.optional(),
  sku: optStr,
  /** May be repeated: an array becomes one `category=` parameter per element. */
  category: z.union([str, z.array(str)]).optional(),
  dateFrom: ymd.optional(),
  dateTo: ymd.optional(),
  onlyPublished: optBool,
});
export type ProductReportQuery = z.infer<typeof productReportQuerySchema>;

export const productReportRowSchema = z.looseObject({
  sku: str,
  customer: optStr,
  name: str.nullish(),
  categories: z.array(str).nullish(),
  url: str.nullish(),
  image: str.nullish(),
  reviews: z.looseObject({
    reviewCount: count,
    aggregateRating: z.number().nullable(),
    publishedCount: count,
    // "null when none is published"
    publishedAggregateRating: z.number().nullable(),
    withPictures: count.optional(),
    withVideo: count.optional(),
    withText: count.optional(),
  }),
});
export type ProductReportRow = z.infer<typeof productReportRowSchema>;

export const productReportResponseSchema = z.looseObject({
  result: z.array(productReportRowSchema),
  total: count,
});
export type ProductReport = z.infer<typeof productReportResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Product groups

export const productGroupBodySchema = z.strictObject({
  name: str.min(1),
  skus: z.array(str.min(1)),
});
export type ProductGroupBody = z.infer<typeof productGroupBodySchema>;

export const productGroupsListQuerySchema = z.strictObject({
  skip: skip.optional(),
  limit: z.int().min(1).optional(),
});
export type ProductGroupsListQuery = z.infer<typeof productGroupsListQuerySchema>;

export const productGroupSchema = z.looseObject({
  _id: str,
  name: str,
  skus: z.array(str),
  customer: optStr,
  products: z.array(z.looseObject({ sku: str })).optional(),
  __v: z.number().optional(),
});
export type ProductGroup = z.infer<typeof productGroupSchema>;

export const productGroupsListResponseSchema = z.looseObject({
  result: z.array(productGroupSchema),
  total: count,
});
export type ProductGroupsList = z.infer<typeof productGroupsListResponseSchema>;
