import type { Logger } from "pino";
import type { Db } from "../db/client";
import { createAdminGraphql, type AdminGraphql } from "./admin-graphql";
import { SHOPIFY_API_VERSION } from "./api-version";

// The Admin API client of one shop, with the shop's offline session: what the workers and the
// app proxy's writes (a shopper's e-mail, an order by its number) use to read Shopify.

export class NoOfflineSessionError extends Error {
  constructor(readonly shop: string) {
    super(`No offline session for ${shop}: the app must be installed (or reinstalled) on the shop`);
    this.name = "NoOfflineSessionError";
  }
}

export function adminForShop(deps: { db: Db; log: Logger; endpoint?: string; fetch?: typeof globalThis.fetch }) {
  return async (domain: string): Promise<AdminGraphql> => {
    const session = await deps.db.session.findFirst({ where: { shop: domain, isOnline: false }, select: { accessToken: true } });
    if (!session) throw new NoOfflineSessionError(domain);
    return createAdminGraphql({
      shop: domain,
      accessToken: session.accessToken,
      apiVersion: SHOPIFY_API_VERSION,
      logger: deps.log.child({ shop: domain }),
      endpoint: deps.endpoint,
      fetch: deps.fetch,
    });
  };
}
