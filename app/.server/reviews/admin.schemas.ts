import { z } from "zod";
import { REPORT_ORDERS } from "../../admin/report-orders";

// zod schemas of the Admin API (the service's "Admin API of the reviews service"; docs/reviews-service.md).
//
// Requests are strict objects: a field the spec does not name is a mapper bug, and we would rather
// refuse to send it than have the service silently drop it. Responses are loose objects: extra fields
// are tolerated, the fields the connector relies on are required, descriptive ones are optional
// (the spec never says which response fields are always present).

const str = z.string();
const optStr = z.string().optional();
const optBool = z.boolean().optional();
/** Dates in `YYYY-MM-DD`, the form the list endpoints document for `from`/`to`. */
const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD");
const skip = z.int().min(0);

// ---------------------------------------------------------------------------------------------
// Token

export const tokenRequestSchema = z.strictObject({
  audience: str,
  grant_type: z.literal("client_credentials"),
  client_id: str,
  client_secret: str,
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const tokenResponseSchema = z.looseObject({
  access_token: str.min(1),
  expires_in: z.number().positive(),
  // Documented as "always Bearer"; not checked, the header scheme is ours to choose anyway.
  token_type: optStr,
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Orders

export const orderStatusV1Schema = z.enum(["created", "authorized", "shipped", "delivered"]);
export const orderStatusV2Schema = z.enum([
  "created",
  "authorized",
  "paid",
  "invoiced",
  "shipped",
  "delivered",
  "cancelled",
]);
export type OrderStatusV1 = z.infer<typeof orderStatusV1Schema>;
export type OrderStatusV2 = z.infer<typeof orderStatusV2Schema>;

// Which order fields are mandatory is "not shown": only `orderId`, the key of every order
// operation, is required here; the service decides about the rest.
const orderCommon = {
  orderId: str.min(1),
  createdDate: optStr,
  userId: optStr,
  estimatedDeliveryDate: optStr,
  deliveredDate: optStr,
  name: optStr,
  email: optStr,
  phone: optStr,
  pointOfSale: optStr,
  deliveryMethod: optStr,
  optOutEmail: optBool,
  optOutSMS: optBool,
  optOutWhatsApp: optBool,
};

export const orderV1Schema = z.strictObject({
  ...orderCommon,
  status: orderStatusV1Schema.optional(),
  items: z.array(z.strictObject({ sku: str.min(1) })).optional(),
});
export type OrderV1 = z.infer<typeof orderV1Schema>;

export const sellerInfoSchema = z.strictObject({ id: str, name: optStr });

export const productDataSchema = z.strictObject({
  name: optStr,
  productName: optStr,
  brand: optStr,
  brandName: optStr,
  mpn: optStr,
  ean: optStr,
  gtin: optStr,
  url: optStr,
  image: optStr,
  categories: z.array(str).optional(),
  categoryName: optStr,
});
export type ProductData = z.infer<typeof productDataSchema>;

export const orderItemV2Schema = z.strictObject({
  productId: str.min(1),
  sku: optStr,
  skuName: optStr,
  status: optStr,
  cancelled: optBool,
  sellerInfo: sellerInfoSchema.optional(),
  productData: productDataSchema.optional(),
});
export type OrderItemV2 = z.infer<typeof orderItemV2Schema>;

/** Version 2 order as the caller gives it; the client adds `version: 2`. */
export const orderV2Schema = z.strictObject({
  ...orderCommon,
  status: orderStatusV2Schema.optional(),
  authorizedDate: optStr,
  modifiedDate: optStr,
  items: z.array(orderItemV2Schema).optional(),
});
export type OrderV2 = z.infer<typeof orderV2Schema>;

export const orderRecordSchema = z.looseObject({
  _id: str,
  orderId: str,
  customer: optStr,
  userId: str.nullish(),
  name: str.nullish(),
  createdDate: str.nullish(),
  authorizedDate: str.nullish(),
  email: str.nullish(),
  phone: str.nullish(),
  status: optStr,
  optOutEmail: optBool,
  optOutSMS: optBool,
  optOutWhatsApp: optBool,
  __v: z.number().optional(),
});
export type OrderRecord = z.infer<typeof orderRecordSchema>;

export const orderUpdateSchema = z.strictObject({
  created: optStr,
  status: orderStatusV1Schema.optional(),
  authorizedDate: optStr,
  deliveredDate: optStr,
});
export type OrderUpdate = z.infer<typeof orderUpdateSchema>;

export const ratingLinkResponseSchema = z.looseObject({ link: z.url() });
export type RatingLink = z.infer<typeof ratingLinkResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Catalog

export const CATALOG_BATCH_MAX_ITEMS = 200;
/**
 * The documented limit is "10 MB"; the client refuses bodies over 10,000,000 bytes, the smaller
 * reading, so that a body the service might refuse never leaves. The service's 413 stays authoritative.
 */
export const CATALOG_BATCH_MAX_BYTES = 10_000_000;

export const specificationSchema = z.strictObject({ name: str, value: str });

const catalogFields = {
  name: optStr,
  categories: z.array(str).optional(),
  brand: optStr,
  url: optStr,
  image: optStr,
  description: optStr,
  descriptionShort: optStr,
  keywords: z.union([str, z.array(str)]).optional(),
  ean: optStr,
  gtin: optStr,
  mpn: optStr,
  reference: optStr,
  internalSku: optStr,
  externalId: optStr,
  status: optStr,
  variants: z.array(str).optional(),
  specifications: z.array(specificationSchema).optional(),
};

export const catalogProductSchema = z.strictObject({ sku: str.min(1), ...catalogFields });
export type CatalogProduct = z.infer<typeof catalogProductSchema>;

export const catalogBatchBodySchema = z.strictObject({
  products: z.array(catalogProductSchema).min(1).max(CATALOG_BATCH_MAX_ITEMS),
});

/** Body of `PUT products/{sku}`: the catalog fields without `sku`. */
export const productUpdateSchema = z.strictObject(catalogFields);
export type ProductUpdate = z.infer<typeof productUpdateSchema>;

const count = z.int().min(0);

export const catalogBatchResultSchema = z
  .looseObject({
    received: count,
    processed: count,
    created: count,
    updated: count,
    unchanged: count,
    failed: count,
    errors: z.array(
      z.looseObject({
        index: z.int().min(0),
        // An item sent without a usable SKU has none to report.
        sku: str.nullish(),
        error: str,
      }),
    ),
  })
  .transform((r) => ({
    ...r,
    errors: r.errors.map((e) => ({ ...e, sku: e.sku ?? null })),
  }));
export type CatalogBatchResult = z.output<typeof catalogBatchResultSchema>;

export const productRecordSchema = z.looseObject({
  _id: str,
  sku: str,
  customer: optStr,
  name: str.nullish(),
  brand: str.nullish(),
  categories: z.array(str).nullish(),
  url: str.nullish(),
  image: str.nullish(),
  variants: z.array(str).nullish(),
  modified: str.nullish(),
});
export type ProductRecord = z.infer<typeof productRecordSchema>;

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

// ---------------------------------------------------------------------------------------------
// Error bodies

/** Batch/product errors: `{error, message}`; group 409: `{message, conflictingSkus}`. Others: not shown. */
export const errorBodySchema = z.looseObject({
  error: z.unknown().optional(),
  message: z.unknown().optional(),
  conflictingSkus: z.unknown().optional(),
});
