// Google's product review feed, schema 2.4, as its XML Schema Reference and sample feed describe it
// (developers.google.com/product-review-feeds/schema and /sample, read 2026-11-29; the XSD itself
// cannot be fetched from this build's network). Data only: the writer takes the version and the
// schema location from here, the checker (feed-check.ts) every rule. What came from where, and the
// readings chosen where the sources leave a gap, is in docs/google-feed.md ("Validation").

/** "At this time only <version>2.4</version> is supported." */
export const FEED_SCHEMA_VERSION = "2.4";
export const FEED_SCHEMA_URL = "http://www.google.com/shopping/reviews/schema/product/2.4/product_reviews.xsd";

/** One child of an element: its name and how often it may occur, in the order the schema lists. */
export type ChildRule = readonly [name: string, min: number, max: number];
const MANY = Infinity;

/** Children of each element, in the schema's sequence (an element not listed holds text only). */
export const CHILDREN: Readonly<Record<string, readonly ChildRule[]>> = {
  feed: [
    ["version", 1, 1],
    ["aggregator", 0, 1],
    ["publisher", 1, 1],
    ["reviews", 0, 1],
  ],
  aggregator: [["name", 1, 1]],
  publisher: [
    ["name", 1, 1],
    ["favicon", 0, 1],
  ],
  reviews: [["review", 1, MANY]],
  // 2.4 adds is_verified_purchase and is_incentivized_review after <reviewer>, review_language and
  // review_country after <content>; the rest keeps the 2.3 sequence. review_id is absent from
  // Google's minimal sample, but the feed's uniqueness constraint is on it and Google deletes a
  // review missing from the next feed by it: required here, as this app always writes it.
  review: [
    ["review_id", 1, 1],
    ["reviewer", 1, 1],
    ["is_verified_purchase", 0, 1],
    ["is_incentivized_review", 0, 1],
    ["review_timestamp", 1, 1],
    ["title", 0, 1],
    ["content", 1, 1],
    ["review_language", 0, 1],
    ["review_country", 0, 1],
    ["pros", 0, 1],
    ["cons", 0, 1],
    ["review_url", 1, 1],
    ["reviewer_images", 0, 1],
    ["ratings", 1, 1],
    ["products", 1, 1],
    ["is_spam", 0, 1],
    ["collection_method", 0, 1],
    ["transaction_id", 0, 1],
  ],
  reviewer: [
    ["name", 1, 1],
    ["reviewer_id", 0, 1],
  ],
  pros: [["pro", 1, MANY]],
  cons: [["con", 1, MANY]],
  reviewer_images: [["reviewer_image", 1, MANY]],
  reviewer_image: [["url", 1, 1]],
  ratings: [["overall", 1, 1]],
  products: [["product", 1, MANY]],
  product: [
    ["product_ids", 0, 1],
    ["product_name", 0, 1],
    ["product_url", 1, 1],
  ],
  product_ids: [
    ["gtins", 0, 1],
    ["mpns", 0, 1],
    ["skus", 0, 1],
    ["brands", 0, 1],
    ["asins", 0, 1],
  ],
  gtins: [["gtin", 1, MANY]],
  mpns: [["mpn", 1, MANY]],
  skus: [["sku", 1, MANY]],
  brands: [["brand", 1, MANY]],
  asins: [["asin", 1, MANY]],
};

/** Attributes each element may carry, and whether it must. */
export const ATTRS: Readonly<Record<string, Readonly<Record<string, boolean>>>> = {
  feed: { "xmlns:vc": false, "xmlns:xsi": false, "xsi:noNamespaceSchemaLocation": false },
  review_url: { type: true },
  overall: { min: true, max: true },
  name: { is_anonymous: false },
};

/** What a text element holds, by its XML Schema type or the reference's own rule. */
export type ValueType =
  | { kind: "boolean" }
  | { kind: "dateTime" }
  | { kind: "url" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "pattern"; pattern: RegExp; describe: string }
  | { kind: "version" };

const BOOLEAN: ValueType = { kind: "boolean" };
const URL_TYPE: ValueType = { kind: "url" };

export const VALUES: Readonly<Record<string, ValueType>> = {
  version: { kind: "version" },
  is_verified_purchase: BOOLEAN,
  is_incentivized_review: BOOLEAN,
  is_spam: BOOLEAN,
  review_timestamp: { kind: "dateTime" },
  // A language code (the sample: "en"; BCP 47 tags such as pt-BR) and an ISO 3166-1 alpha-2 country.
  review_language: { kind: "pattern", pattern: /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, describe: "a language code" },
  review_country: { kind: "pattern", pattern: /^[A-Z]{2}$/, describe: "an ISO 3166-1 alpha-2 country code" },
  review_url: URL_TYPE,
  product_url: URL_TYPE,
  favicon: URL_TYPE,
  url: URL_TYPE,
  // "The method used to collect the review": Google's two enumerated values.
  collection_method: { kind: "enum", values: ["unsolicited", "post_fulfillment"] },
};

/** Enumerated attribute values. */
export const ATTR_VALUES: Readonly<Record<string, Readonly<Record<string, ValueType>>>> = {
  review_url: { type: { kind: "enum", values: ["singleton", "group"] } },
  name: { is_anonymous: BOOLEAN },
};

/** The lexical space of xs:boolean. */
export const XS_BOOLEAN: ReadonlySet<string> = new Set(["true", "false", "1", "0"]);
