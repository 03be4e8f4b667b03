import { z } from "zod";
import { catalogProductSchema } from "../reviews";

// The two shapes a Shopify product reaches us in, validated at the edge (webhook route, GraphQL and
// bulk readers), and the catalog product we send. Input schemas are loose: Shopify adds fields in
// every API version, and an unknown field must never fail a sync. Fields we read are nullish because
// Shopify sends null for "unset" about as often as it omits the key.

const idLike = z.union([z.number().int().nonnegative(), z.string().min(1)]);
const str = z.string().nullish();

// ---------- (a) REST webhook payload: products/create, products/update ----------

export const webhookVariantSchema = z.looseObject({
  id: idLike,
  admin_graphql_api_id: str,
  title: str,
  sku: str,
  barcode: str,
  price: str,
  position: z.number().nullish(),
  option1: str,
  option2: str,
  option3: str,
});

export const webhookProductSchema = z.looseObject({
  id: idLike,
  admin_graphql_api_id: str,
  title: str,
  body_html: str,
  vendor: str,
  product_type: str,
  handle: str,
  status: str,
  // A comma-separated string in webhooks ("a, b"); tolerate an array too.
  tags: z.union([z.string(), z.array(z.string())]).nullish(),
  updated_at: str,
  variants: z.array(webhookVariantSchema).nullish(),
  options: z.array(z.looseObject({ name: str, values: z.array(z.string()).nullish() })).nullish(),
  images: z.array(z.looseObject({ src: str, position: z.number().nullish() })).nullish(),
  image: z.looseObject({ src: str }).nullish(),
  media: z
    .array(z.looseObject({ media_content_type: str, preview_image: z.looseObject({ src: str }).nullish() }))
    .nullish(),
  // From webhook API version 2024-10; null when the product has no category.
  category: z.looseObject({ admin_graphql_api_id: str, name: str, full_name: str }).nullish(),
  // Present only when the subscription asks for metafield namespaces.
  metafields: z
    .array(z.looseObject({ namespace: z.string(), key: z.string(), value: z.unknown(), type: str }))
    .nullish(),
});

export type WebhookProduct = z.infer<typeof webhookProductSchema>;

/** The products/delete payload is only the id. */
export const webhookProductDeleteSchema = z.looseObject({ id: idLike });

// ---------- (b) GraphQL / bulk-operation product node ----------

/** A connection as queried (`nodes` or `edges`), or already flattened (bulk children joined by id). */
function connectionOf<T extends z.ZodType>(node: T) {
  return z.union([
    z.array(node),
    z.looseObject({ nodes: z.array(node) }),
    z.looseObject({ edges: z.array(z.looseObject({ node })) }),
  ]);
}

export const graphqlBarcodeSchema = z.looseObject({ type: str, value: z.string() });

export const graphqlVariantSchema = z.looseObject({
  id: z.string().min(1),
  title: str,
  sku: str,
  // Bulk lines carry the single `barcode` (a bulk query cannot nest the barcodes connection).
  barcode: str,
  barcodes: connectionOf(graphqlBarcodeSchema).nullish(),
  price: z.union([z.string(), z.looseObject({ amount: z.string() })]).nullish(),
});

export const graphqlMetafieldSchema = z.looseObject({
  namespace: z.string(),
  key: z.string(),
  value: str,
  type: str,
  definition: z.looseObject({ name: str }).nullish(),
});

export const graphqlProductNodeSchema = z.looseObject({
  id: z.string().min(1),
  title: str,
  handle: str,
  descriptionHtml: str,
  vendor: str,
  productType: str,
  status: str,
  tags: z.union([z.array(z.string()), z.string()]).nullish(),
  updatedAt: str,
  category: z.looseObject({ id: str, name: str, fullName: str }).nullish(),
  featuredMedia: z
    .looseObject({
      preview: z.looseObject({ image: z.looseObject({ url: str }).nullish() }).nullish(),
      image: z.looseObject({ url: str }).nullish(),
    })
    .nullish(),
  featuredImage: z.looseObject({ url: str }).nullish(),
  options: z
    .array(
      z.looseObject({
        name: str,
        values: z.array(z.string()).nullish(),
        optionValues: z.array(z.looseObject({ name: z.string() })).nullish(),
      }),
    )
    .nullish(),
  variants: connectionOf(graphqlVariantSchema).nullish(),
  collections: connectionOf(z.looseObject({ title: str })).nullish(),
  metafields: connectionOf(graphqlMetafieldSchema).nullish(),
});

export type GraphqlProductNode = z.infer<typeof graphqlProductNodeSchema>;

// ---------- The catalog product of the reviews service (admin-api.md, "Catalog product") ----------
// The client's schema (reviews/admin.schemas.ts, catalogProductSchema), refined to what the mapper
// writes: no empty strings, keywords as a list, the status one of the two the service knows.

const nonEmpty = z.string().min(1);

export const mappedCatalogProductSchema = catalogProductSchema.extend({
  sku: nonEmpty,
  name: nonEmpty.optional(),
  categories: z.array(nonEmpty).optional(),
  brand: nonEmpty.optional(),
  url: nonEmpty.optional(),
  image: nonEmpty.optional(),
  description: nonEmpty.optional(),
  descriptionShort: nonEmpty.optional(),
  keywords: z.array(nonEmpty).optional(),
  ean: nonEmpty.optional(),
  gtin: nonEmpty.optional(),
  mpn: nonEmpty.optional(),
  reference: nonEmpty.optional(),
  internalSku: nonEmpty.optional(),
  externalId: nonEmpty.optional(),
  status: z.enum(["active", "inactive"]).optional(),
  variants: z.array(nonEmpty).optional(),
  specifications: z.array(z.strictObject({ name: nonEmpty, value: nonEmpty })).optional(),
});

export type MappedProductFields = z.infer<typeof mappedCatalogProductSchema>;

/** What `mapProduct` returns: everything a new product needs is always there. */
export type MappedCatalogProduct = MappedProductFields & {
  name: string;
  categories: string[];
  status: "active" | "inactive";
};
