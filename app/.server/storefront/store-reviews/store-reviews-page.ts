import type { StoreReview } from "../../reviews";
import { resolveLocale, type StorefrontLocale } from "../proxy/reviews-query";

// Store reviews a page at a time. The service's published list (`store-reviews/published/{sort}`)
// documents no paging, so the app asks for the whole list in one order and cuts pages itself.

export const STORE_SORTS = {
  newest: { field: "created", direction: -1 },
  highest: { field: "rating", direction: -1 },
  lowest: { field: "rating", direction: 1 },
} as const;
export type StoreSort = keyof typeof STORE_SORTS;
export const STORE_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 30;

export interface StoreReviewsQuery {
  sort: StoreSort;
  page: number;
  pageSize: number;
  locale: StorefrontLocale;
}

/** One store review as the `store-reviews-page` snippet draws it. */
export interface PageStoreReview {
  id: string;
  name: string;
  rating: number;
  text: string;
  date: string;
}

export interface StoreReviewsPageVars {
  reviews: PageStoreReview[];
  page: number;
  pages: number;
  total: number;
  sort: StoreSort;
}

const SHOPIFY_PARAMS = new Set(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"]);

export function parseStoreReviewsQuery(
  search: URLSearchParams,
): { ok: true; query: StoreReviewsQuery } | { ok: false; message: string } {
  for (const key of new Set(search.keys())) {
    if (!SHOPIFY_PARAMS.has(key) && !["sort", "page", "pageSize", "locale"].includes(key))
      return { ok: false, message: `${key} is not a parameter of this page (sort, page, pageSize, locale)` };
  }
  const sort = search.get("sort") || "newest";
  if (!(sort in STORE_SORTS)) return { ok: false, message: "sort must be newest, highest or lowest" };
  const int = (name: string, fallback: number, max: number) => {
    const raw = search.get(name);
    if (raw === null || raw === "") return fallback;
    return /^\d{1,4}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= max ? Number(raw) : null;
  };
  const page = int("page", 1, 1000);
  if (page === null) return { ok: false, message: "page must be a whole number from 1 to 1000" };
  const pageSize = int("pageSize", STORE_PAGE_SIZE, MAX_PAGE_SIZE);
  if (pageSize === null) return { ok: false, message: `pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}` };
  return {
    ok: true,
    query: { sort: sort as StoreSort, page, pageSize, locale: resolveLocale(search.get("locale") ?? undefined) },
  };
}

export function toPageStoreReview(r: StoreReview): PageStoreReview {
  return {
    id: r._id,
    name: (r.name ?? "").trim(),
    rating: Math.max(1, Math.min(5, Math.round(r.rating))),
    text: r.text ?? "",
    date: r.created ?? "",
  };
}

export function storeReviewsPage(
  all: readonly PageStoreReview[],
  query: Pick<StoreReviewsQuery, "page" | "pageSize" | "sort">,
): StoreReviewsPageVars {
  const pages = Math.max(1, Math.ceil(all.length / query.pageSize));
  const page = Math.min(query.page, pages);
  return {
    reviews: all.slice((page - 1) * query.pageSize, page * query.pageSize),
    page,
    pages,
    total: all.length,
    sort: query.sort,
  };
}
