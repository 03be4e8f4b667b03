import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { ReviewsPermanentError, type ReviewsClient, type StoreReview } from "../reviews";
import { type AdminGraphql, ShopifyUserErrors, type UserError, APP_INSTALLATION_ID, METAFIELDS_SET } from "../shopify";
import { safeUrl } from "../security";
import {
  readProxyPath,
  SHOP_DATA_KEY,
  SHOP_DATA_NAMESPACE,
  SHOP_DATA_VERSION,
  shopDataSchema,
  type ShopData,
} from "../theme";

// The shop-wide app-data metafield (`app.metafields.reviews.shop` in Liquid): store-review summary
// and carousel, top-rated products and their badge, the app proxy path, the rating page base and the account's
// customer key. Built from the service on each back-sync run and written only when it changed.

const roundTo1 = (n: number) => Math.round(n * 10) / 10;

/** Pure: the shop data from what the service said. */
export function buildShopData(input: {
  proxyPath: string;
  storeSummary: { count: number; avgRating: number | null; enableStoreReview?: boolean }[];
  topRated: { skus: string[]; badgeLabel?: string | null };
  rateUrl: string | null;
  customer: string;
  carousel?: StoreReview[];
  defaultBadgeLabel?: string;
  guestQuestions?: boolean;
}): ShopData {
  const store = input.storeSummary[0];
  const storeOn = store && store.enableStoreReview !== false && store.count > 0 && typeof store.avgRating === "number";
  return shopDataSchema.parse({
    v: SHOP_DATA_VERSION,
    proxyPath: input.proxyPath,
    store: storeOn ? { avg: roundTo1(store.avgRating as number), count: store.count } : null,
    topRated: {
      skus: [...input.topRated.skus],
      // Blank: the theme says "Top rated" in the shopper's language (the service's own label stays as sent).
      label: input.topRated.badgeLabel || input.defaultBadgeLabel || "",
    },
    // The rating modal frames this page on the storefront: the one URL rule, like every other URL it renders.
    rateUrl: input.rateUrl ? (safeUrl(input.rateUrl, "storefront.rate_url")?.replace(/\/+$/, "") ?? null) : null,
    customer: input.customer,
    guestQuestions: input.guestQuestions ?? false,
    carousel: storeOn ? (input.carousel ?? []).slice(0, CAROUSEL_MAX).map(carouselItem) : [],
  });
}

const CAROUSEL_MAX = 10;
/** Carousel texts are cut (at a word) so ten of them stay small in the metafield. */
export const CAROUSEL_TEXT_MAX = 280;

function carouselItem(r: StoreReview) {
  const text = (r.text ?? "").trim();
  const cut = text.length <= CAROUSEL_TEXT_MAX ? text : `${text.slice(0, CAROUSEL_TEXT_MAX).replace(/\s+\S*$/, "")}…`;
  return {
    id: r._id,
    name: (r.name ?? "").trim(),
    rating: Math.max(1, Math.min(5, Math.round(r.rating))),
    text: cut,
    date: r.created ?? "",
  };
}

export const shopDataDigest = (data: ShopData) => createHash("sha256").update(JSON.stringify(data)).digest("base64url");

export async function readShopData(deps: {
  reviews: ReviewsClient;
  redis: Redis;
  prefix: string;
  shop: string;
  guestQuestions?: boolean;
  signal?: AbortSignal;
}): Promise<ShopData> {
  // An account without store reviews or a top-rated list may answer 404: shown as none, while
  // an outage (retryable) fails the run like any other read.
  const orNone = <T>(p: Promise<T>, none: T) =>
    p.catch((e: unknown) =>
      e instanceof ReviewsPermanentError && e.reason === "not_found" ? none : Promise.reject(e),
    );
  const [storeSummary, topRated, proxyPath, carousel] = await Promise.all([
    orNone(deps.reviews.storefront.getStoreReviewsSummary({ signal: deps.signal }), []),
    orNone(deps.reviews.storefront.getTopRated({ signal: deps.signal }), { skus: [], badgeLabel: null }),
    readProxyPath(deps.redis, deps.prefix, deps.shop),
    orNone(deps.reviews.storefront.getStoreReviewsCarousel({ signal: deps.signal }), []),
  ]);
  return buildShopData({
    proxyPath,
    storeSummary,
    topRated,
    rateUrl: deps.reviews.account.rateUrl ?? null,
    customer: deps.reviews.account.customer,
    carousel,
    guestQuestions: deps.guestQuestions,
  });
}

/** Writes the shop data on the app installation; one read of its id, one metafieldsSet. */
export async function writeShopData(gql: AdminGraphql, data: ShopData): Promise<void> {
  const inst = await gql.query<{ currentAppInstallation: { id: string } }>(APP_INSTALLATION_ID);
  const result = await gql.query<{ metafieldsSet: { userErrors: UserError[] } | null }>(METAFIELDS_SET, {
    metafields: [
      {
        ownerId: inst.currentAppInstallation.id,
        namespace: SHOP_DATA_NAMESPACE,
        key: SHOP_DATA_KEY,
        type: "json",
        value: JSON.stringify(data),
      },
    ],
  });
  const errors = result.metafieldsSet?.userErrors ?? [];
  if (errors.length) throw new ShopifyUserErrors("metafieldsSet (shop data)", gql.shop, errors);
}
