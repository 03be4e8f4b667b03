// The product shapes the spec embeds in other resources. Each is a projection of the stored record;
// absent optional fields are omitted (as a document store would), not sent as null, except where
// the spec itself says "or null".
import type { ProductAggregate, StoredProduct } from "./types";

/** Response of `PUT /{customer}/products/{sku}`. */
export function productRecord(p: StoredProduct) {
  return {
    _id: p._id,
    customer: p.customer,
    sku: p.sku,
    name: p.name,
    brand: p.brand,
    categories: p.categories,
    url: p.url,
    image: p.image,
    variants: p.variants,
    modified: p.modified,
  };
}

/** Element of `products` in a product group. */
export function groupProduct(p: StoredProduct) {
  return {
    _id: p._id,
    customer: p.customer,
    sku: p.sku,
    name: p.name,
    brand: p.brand,
    categories: p.categories,
    image: p.image,
    url: p.url,
    variants: p.variants,
  };
}

/** `product` of an admin review. */
export function reviewProduct(p: StoredProduct) {
  return {
    _id: p._id,
    customer: p.customer,
    sku: p.sku,
    name: p.name,
    categories: p.categories,
    url: p.url,
    image: p.image,
    brand: p.brand,
    mpn: p.mpn,
    gtin: p.gtin,
    specifications: p.specifications,
  };
}

/** `product` of an admin question; totals are over published reviews. */
export function questionProduct(p: StoredProduct, agg: ProductAggregate | undefined) {
  return {
    _id: p._id,
    sku: p.sku,
    customer: p.customer,
    brand: p.brand,
    categories: p.categories,
    image: p.image,
    isKit: p.isKit,
    modified: p.modified,
    name: p.name,
    url: p.url,
    variants: p.variants,
    status: p.status,
    sumRatings: agg?.publishedRatingSum ?? 0,
    totalReviews: agg?.publishedCount ?? 0,
  };
}

/** `product` of the Client API summary response. */
export function summaryProduct(p: StoredProduct, agg: ProductAggregate | undefined) {
  return {
    categories: p.categories,
    brand: p.brand ?? null,
    name: p.name,
    aiSummaryProcessed: p.aiSummary?.processed ?? null,
    aiSummaryText: p.aiSummary?.text ?? null,
    aiSummaryTopics: p.aiSummary?.topics ?? {},
    image: p.image ?? null,
    url: p.url ?? null,
    isKit: p.isKit,
    modified: p.modified,
    status: p.status ?? "active",
    variants: p.variants,
    // Numeric variant keys (Shopify variant ids) as integers; SKU-style keys have no integer form.
    variantIds: p.variants.filter((v) => /^\d{1,15}$/.test(v)).map(Number),
    eans: p.ean ? [p.ean] : [],
    sumRatings: agg?.publishedRatingSum ?? 0,
    totalReviews: agg?.publishedCount ?? 0,
  };
}
