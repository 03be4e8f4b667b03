import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Config } from "../config";
import type { Db } from "../db";
import { createAdminGraphql, type AdminGraphql } from "./admin-graphql";
import { SHOPIFY_API_VERSION } from "./api-version";
import { adminGraphqlUrl, shopOrigin } from "./shop-origin";
import { shopTokenProvider } from "./shop-tokens";
import type { TokenProvider } from "./token-provider";

// The Admin API client of one shop outside a merchant's request, with the shop's offline token from
// the token provider: what the workers, the CLI and the app proxy's writes use to read Shopify.

export { NoOfflineSessionError } from "./offline-sessions";

export function adminForShop(deps: {
  log: Logger;
  tokens: TokenProvider;
  originTemplate?: string;
  fetch?: typeof globalThis.fetch;
}) {
  return async (domain: string): Promise<AdminGraphql> => {
    const accessToken = deps.tokens.source(domain);
    // Fails here, not at the first call, when the shop has no offline session.
    await accessToken.current();
    return createAdminGraphql({
      shop: domain,
      accessToken,
      apiVersion: SHOPIFY_API_VERSION,
      logger: deps.log.child({ shop: domain }),
      endpoint: adminGraphqlUrl(shopOrigin(domain, deps.originTemplate), SHOPIFY_API_VERSION),
      fetch: deps.fetch,
    });
  };
}

/** adminForShop with the process's own token provider, from its configuration. */
export function adminForShopOf(
  config: Config,
  deps: { db: Db; redis: Redis; log: Logger; fetch?: typeof globalThis.fetch },
) {
  const tokens = shopTokenProvider(config, deps);
  return {
    tokens,
    adminFor: adminForShop({ log: deps.log, tokens, originTemplate: config.SHOPIFY_ORIGIN, fetch: deps.fetch }),
  };
}
