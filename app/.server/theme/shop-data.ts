import { z } from "zod";

// Shop-wide data the theme blocks read without a request: an app-data metafield of the app
// installation, `app.metafields.reviews.shop.value` in Liquid. Written by the back-sync worker.

export const SHOP_DATA_NAMESPACE = "reviews";
export const SHOP_DATA_KEY = "shop";
export const SHOP_DATA_VERSION = 1;

export const shopDataSchema = z.object({
  v: z.literal(SHOP_DATA_VERSION),
  /**
   * The path the storefront reaches the app proxy at, as the app last saw it (`path_prefix` of a
   * proxied request, `/apps/reviews` until one arrives): merchants can rename prefix and subpath.
   */
  proxyPath: z.string(),
  /** Store reviews: average (one decimal) and count; null when the account has none or they are off. */
  store: z.object({ avg: z.number(), count: z.number().int().min(0) }).nullable(),
  /** Product keys (catalog SKUs = Shopify product ids) currently top rated, and the badge's text. */
  topRated: z.object({ skus: z.array(z.string()), label: z.string() }),
  /** The service's rating page base, for the rating modal embed. */
  rateUrl: z.string().nullable(),
  /** The account's customer key at the service (public: it is part of every rating-page URL). */
  customer: z.string(),
  /** The service's store-review carousel (latest most positive, at most 10), texts shortened. */
  /** Guests may ask a question with a name and an e-mail (the merchant's setting): the Q&A form asks for them. */
  guestQuestions: z.boolean().default(false),
  carousel: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        rating: z.number().int().min(1).max(5),
        text: z.string(),
        date: z.string(),
      }),
    )
    .default([]),
});
export type ShopData = z.infer<typeof shopDataSchema>;

export const DEFAULT_PROXY_PATH = "/apps/reviews";
