import { z } from "zod";
import { count, optBool, optStr, str } from "./schema-parts";

// zod schemas of the Admin API (the service's "Admin API of the reviews service"; docs/reviews-service.md)
// that the sync writes with: the token, orders and the catalog, and the error bodies. What the
// merchant's admin pages list (reviews, questions, survey responses, the product report, product
// groups) is in admin-lists.schemas.ts.
//
// Requests are strict objects: a field the spec does not name is a mapper bug, and we would rather
// refuse to send it than have the service silently drop it. Responses are loose objects: extra fields
// are tolerated, the fields the connector relies on are required, descriptive ones are optional
// (the spec never says which response fields are always present).

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
// Error bodies

/** Batch/product errors: `{error, message}`; group 409: `{message, conflictingSkus}`. Others: not shown. */
export const errorBodySchema = z.looseObject({
  error: z.unknown().optional(),
  message: z.unknown().optional(),
  conflictingSkus: z.unknown().optional(),
});
