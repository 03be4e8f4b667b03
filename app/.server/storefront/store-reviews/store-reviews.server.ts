import type { ReviewsStorefrontApi } from "../../reviews";
import { listPageResponse, type ListPageDeps } from "../proxy/list-page.server";
import type { StorefrontLocale } from "../proxy/reviews-query";
import {
  parseStoreReviewsQuery,
  STORE_SORTS,
  storeReviewsPage,
  toPageStoreReview,
  type PageStoreReview,
  type StoreReviewsPageVars,
  type StoreReviewsQuery,
} from "./store-reviews-page";

// `GET <proxy>/store-reviews?sort=newest|highest|lowest&page=&pageSize=&locale=`: a page of the
// store's published reviews as HTML from the theme's `store-reviews-page` snippet. Each sort's
// whole list is cached once and shared by its pages and languages.

export interface StoreReviewsDeps extends ListPageDeps {
  reviewsFor(shop: string): Promise<Pick<ReviewsStorefrontApi, "listPublishedStoreReviews">>;
  renderStoreReviews(vars: StoreReviewsPageVars, locale: StorefrontLocale): Promise<string>;
}

export function storeReviewsPageResponse(request: Request, deps: StoreReviewsDeps): Promise<Response> {
  return listPageResponse<StoreReviewsQuery>(request, deps, {
    parse: parseStoreReviewsQuery,
    // One list per sort, shared by its pages and languages.
    list: (q) => `store-reviews/${q.sort}`,
    normal: (q) => `sort=${q.sort}&page=${q.page}&pageSize=${q.pageSize}&locale=${q.locale}`,
    fetchList: async (shop, q) => {
      const { results } = await (await deps.reviewsFor(shop)).listPublishedStoreReviews(STORE_SORTS[q.sort]);
      return JSON.stringify(results.map(toPageStoreReview));
    },
    render: (all, q) => deps.renderStoreReviews(storeReviewsPage(JSON.parse(all) as PageStoreReview[], q), q.locale),
  });
}
