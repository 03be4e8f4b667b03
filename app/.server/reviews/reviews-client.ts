import { createAdminApi } from "./admin-api";
import type { CreateReviewsClientOptions } from "./client-options";
import { ratePageUrl } from "./rate-page";
import type * as sf from "./storefront.schemas";
import { createStorefrontApi } from "./storefront-api";
import { createTransport } from "./transport";

// The one client of the reviews service: every Admin API and Client API endpoint, typed by the
// zod schemas beside it. It does not retry (the queues do) except for the documented token dance:
// a 401 on an admin call drops the cached token, fetches a new one and repeats the call once.
// With a `pause`, a 429's Retry-After holds back every admin call of the account until it passes.
// The calls' plumbing is in transport.ts, the endpoints in admin-api.ts and storefront-api.ts.

export function createReviewsClient(options: CreateReviewsClientOptions) {
  const t = createTransport(options);
  const { account, apiUrl, tokens } = t;

  return {
    account: { customer: account.customer, apiUrl, authUrl: account.authUrl, rateUrl: account.rateUrl },
    admin: createAdminApi(t),
    storefront: createStorefrontApi(t),

    /** The rating page of an order for this account. Pure. */
    ratePageUrl(params: Omit<sf.RatePageParams, "rateUrl" | "customer">): string {
      return ratePageUrl({ ...params, rateUrl: account.rateUrl, customer: account.customer });
    },

    /**
     * Asks the token endpoint directly, bypassing the cache: checks credentials before they are
     * saved. Throws ReviewsAuthError when they are refused.
     */
    async verifyCredentials(): Promise<{ expiresIn: number }> {
      const token = await tokens.request();
      return { expiresIn: token.expiresIn };
    },
  };
}

export type ReviewsClient = ReturnType<typeof createReviewsClient>;
export type ReviewsAdminApi = ReviewsClient["admin"];
export type ReviewsStorefrontApi = ReviewsClient["storefront"];
