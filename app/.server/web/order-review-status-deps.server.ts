import type { AppContext } from "../context.server";
import { ratePageUrl } from "../reviews";
import type { ExtensionReviewStatusDeps, RateCheckDeps } from "../storefront";
import { proxyDeps } from "./proxy-deps.server";
import { reviewWriteDeps } from "./write-deps.server";

// The order review status answers' parts, made once per app context: the proxy's signature check, limits
// and service clients, and the writers' Shopify reads (admin client, the customer's identity cache).

const made = new WeakMap<AppContext, RateCheckDeps>();

/** Also the rating modal's pre-check's (rate-check.server.ts): the same reads, and its panel's snippet. */
export function orderReviewStatusDeps(ctx: AppContext): RateCheckDeps {
  const existing = made.get(ctx);
  if (existing) return existing;
  const read = proxyDeps(ctx);
  const write = reviewWriteDeps(ctx);
  const { config, shops } = ctx;
  const defaults = {
    apiUrl: config.REVIEWS_API_URL,
    authUrl: config.REVIEWS_AUTH_URL,
    rateUrl: config.REVIEWS_RATE_URL,
  };
  const deps: RateCheckDeps = {
    authenticate: read.authenticate,
    limits: read.limits,
    log: read.log,
    adminFor: write.adminFor,
    customerIdentity: write.customerIdentity,
    settingsOf: write.settingsOf,
    async serviceFor(shop) {
      const [api, account] = await Promise.all([read.reviewsFor(shop), shops.account(shop, defaults)]);
      return {
        api,
        rateHref: (p) => ratePageUrl({ ...p, rateUrl: account.rateUrl, customer: account.customer, source: "store" }),
      };
    },
    reviewed: write.reviewed,
    renderOrders: read.renderOrders,
    renderError: read.renderError,
    renderReviewed: read.renderReviewed,
    cache: read.cache,
    settings: {
      ipLimit: read.settings.ipLimit,
      shopLimit: read.settings.shopLimit,
      redisPrefix: read.settings.redisPrefix,
    },
  };
  made.set(ctx, deps);
  return deps;
}

/** The session token checks of the customer account and checkout UI extensions (the app's library instance's). */
export type ExtensionChecks = Pick<ExtensionReviewStatusDeps, "customerAccount" | "checkout">;

/** The UI extensions' backend: the same reads, with the session token checks instead of the proxy's. */
export function extensionReviewStatusDeps(ctx: AppContext, checks: ExtensionChecks): ExtensionReviewStatusDeps {
  return { ...orderReviewStatusDeps(ctx), ...checks, apiKey: ctx.config.SHOPIFY_API_KEY };
}
