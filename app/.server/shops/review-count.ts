import type { Config } from "../config";
import { ShopNotConnectedError, type ShopRepository } from "./shop.repository";
import { createReviewsClient, DEFAULT_TOKEN_TIMEOUT_MS, ReviewsError } from "../reviews";

// How many reviews the service holds for a shop's account: asked before `catalog.variantKey`
// changes (the CLI's `settings set` and the admin's Settings page), because reviews collected under
// the old variant keys stop matching the variants and order items the app sends.

export type ReviewCount = { ok: true; total: number; customer: string } | { ok: false; reason: string };

export async function countReviews(
  deps: { config: Config; shops: ShopRepository },
  domain: string,
): Promise<ReviewCount> {
  const { REVIEWS_API_URL, REVIEWS_AUTH_URL, REVIEWS_RATE_URL, REVIEWS_TIMEOUT_MS } = deps.config;
  let account;
  try {
    account = await deps.shops.account(domain, {
      apiUrl: REVIEWS_API_URL,
      authUrl: REVIEWS_AUTH_URL,
      rateUrl: REVIEWS_RATE_URL,
    });
  } catch (error) {
    if (error instanceof ShopNotConnectedError)
      return { ok: false, reason: "the shop is not connected to the reviews service" };
    throw error;
  }
  const client = createReviewsClient({
    account,
    timeoutMs: REVIEWS_TIMEOUT_MS,
    tokenTimeoutMs: Math.min(REVIEWS_TIMEOUT_MS, DEFAULT_TOKEN_TIMEOUT_MS),
  });
  try {
    const { total } = await client.admin.listReviews({});
    return { ok: true, total, customer: account.customer };
  } catch (error) {
    if (error instanceof ReviewsError) return { ok: false, reason: error.message };
    throw error;
  }
}
