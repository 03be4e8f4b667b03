import type { AppContext } from "../context.server";
import type { Shop } from "@prisma/client";
import { shopGoogleFeedUrl, type ExclusionReason, readFeedStatus, type FeedStatus, PRODUCTS_REPORTED } from "../google";
import { productIdOf } from "../../shared/product-ids";
import { shopProduct } from "./shop-products";
import { reviewsFor } from "./reviews-client";
import { serviceProductNames } from "./service-product-names";

// The admin's Google Shopping section: the address to paste into Merchant Center, the last feed the
// route wrote against Google's minimum, and the products it left out, a page at a time, each with
// the Shopify admin page where the merchant fixes it. Read from Redis (feed-status.ts) and the
// product mirror: opening the page never builds the feed, and asks the service only for the names
// of the page's products the mirror cannot name (gone from the synced catalog, or never synced).

/**
 * Google's Product Ratings program takes a review feed only from a merchant with at least 50
 * reviews across all products ("Product Ratings policies", Merchant Center Help).
 */
export const GOOGLE_MIN_REVIEWS = 50;
/** Google deems a feed not refreshed within a month stale (same policy page). */
export const GOOGLE_STALE_AFTER_DAYS = 30;
export const LEFT_OUT_PAGE_SIZE = 20;

export interface LeftOutProduct {
  key: string;
  title: string | null;
  reasons: ExclusionReason[];
  /** The product in the Shopify admin, or null when the app knows no Shopify id for it. */
  adminHref: string | null;
}

/**
 * The product's page in the Shopify admin, as App Bridge opens it from an embedded app (the
 * `shopify:` protocol: the admin navigates itself, on whatever host the merchant uses). The id came
 * from the mirror, which came from Shopify: only a numeric id makes a link.
 */
export function productAdminHref(productId: string | null | undefined): string | null {
  const id = typeof productId === "string" ? productIdOf(productId) : null;
  return id === null ? null : `shopify://admin/products/${id}`;
}

/** `page` from the query: a whole number from 1, anything else the first page. */
export function pageParam(raw: string | null): number {
  const n = raw !== null && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return n >= 1 ? n : 1;
}

/**
 * One page of the products left out, in the status's order, named and linked from the mirror's
 * rows; a product the mirror cannot name takes the service's name for it, if any. Pure.
 */
export function leftOutPage(
  products: FeedStatus["products"],
  rows: readonly { productId: string; sku: string; payload: string | null }[],
  page: number,
  size = LEFT_OUT_PAGE_SIZE,
  serviceNames: ReadonlyMap<string, string> = new Map(),
): { rows: LeftOutProduct[]; page: number; pages: number; total: number } {
  const pages = Math.max(1, Math.ceil(products.length / size));
  const at = Math.min(Math.max(1, page), pages);
  const byKey = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (!byKey.has(r.sku) || (r.payload && !byKey.get(r.sku)!.payload)) byKey.set(r.sku, r);
  return {
    rows: products.slice((at - 1) * size, at * size).map(({ key, reasons }) => {
      const row = byKey.get(key);
      return {
        key,
        title: (row ? shopProduct(row).title : null) ?? serviceNames.get(key) ?? null,
        reasons,
        adminHref: productAdminHref(row?.productId),
      };
    }),
    page: at,
    pages,
    total: products.length,
  };
}

export type FeedHealth = "none" | "belowMinimum" | "stale" | "ok";

/** What the page leads with. Pure. */
export function feedHealth(status: FeedStatus | null, now: Date): FeedHealth {
  if (!status?.builtAt) return "none";
  if (status.included < GOOGLE_MIN_REVIEWS) return "belowMinimum";
  const last = Date.parse(status.fetchedAt ?? status.builtAt);
  return now.getTime() - last > GOOGLE_STALE_AFTER_DAYS * 86_400_000 ? "stale" : "ok";
}

export async function googleChannel(
  ctx: AppContext,
  shop: Pick<Shop, "id" | "domain" | "primaryDomain">,
  params: URLSearchParams,
  now = new Date(),
) {
  const redis = ctx.queues.redis;
  const [feedUrl, status] = await Promise.all([
    shopGoogleFeedUrl({ redis, prefix: ctx.config.REDIS_PREFIX }, shop),
    readFeedStatus(redis, ctx.config.REDIS_PREFIX, shop.id),
  ]);
  const products = status?.products ?? [];
  const page = Math.min(pageParam(params.get("page")), Math.max(1, Math.ceil(products.length / LEFT_OUT_PAGE_SIZE)));
  const wanted = products.slice((page - 1) * LEFT_OUT_PAGE_SIZE, page * LEFT_OUT_PAGE_SIZE).map((p) => p.key);
  // Every row of those keys, refused ones too: a product never accepted still has its Shopify id.
  const rows = wanted.length
    ? await ctx.db.productMirror.findMany({
        where: { shopId: shop.id, sku: { in: wanted } },
        select: { productId: true, sku: true, payload: true },
      })
    : [];
  return {
    feedUrl,
    minimum: GOOGLE_MIN_REVIEWS,
    health: feedHealth(status, now),
    feed: status
      ? {
          builtAt: status.builtAt,
          fetchedAt: status.fetchedAt,
          included: status.included,
          parts: status.parts,
          overSize: status.overSize,
          excluded: status.excluded,
        }
      : null,
    leftOut: {
      ...leftOutPage(products, rows, page, LEFT_OUT_PAGE_SIZE, await namesFromService(ctx, shop.domain, wanted, rows)),
      capped: products.length >= PRODUCTS_REPORTED,
    },
  };
}

/** The service's names for the page's keys the mirror cannot name; none when the service is out of reach. */
async function namesFromService(
  ctx: AppContext,
  domain: string,
  wanted: readonly string[],
  rows: readonly { productId: string; sku: string; payload: string | null }[],
): Promise<Map<string, string>> {
  const named = new Set(rows.filter((r) => shopProduct(r).title !== null).map((r) => r.sku));
  const unnamed = wanted.filter((k) => !named.has(k));
  if (!unnamed.length) return new Map();
  // A page lists at most LEFT_OUT_PAGE_SIZE products: read each once, as the groups list does.
  const admin = await reviewsFor(ctx, domain).then(
    (c) => c.admin,
    () => null,
  );
  return admin ? serviceProductNames(admin, unnamed, LEFT_OUT_PAGE_SIZE) : new Map();
}
