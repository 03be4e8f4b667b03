import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Config } from "../config";
import { keyFrom } from "../crypto";
import type { Db } from "../db";
import { observeTokenMigration, observeTokenRefresh } from "../metrics";
import { shopTokenStates, type ShopTokenStates } from "./token-state";
import { offlineSessions } from "./offline-sessions";
import { createTokenEndpoint } from "./token-endpoint";
import type { MigrationDeps } from "./token-migration";
import { createTokenProvider, type TokenProvider } from "./token-provider";

// The process's offline-token parts, from its configuration: the token provider and the migration,
// both reporting to the metrics and to the shop's token state (what `cli status` and the admin show).

type TokenConfig = Pick<
  Config,
  | "SHOPIFY_API_KEY"
  | "SHOPIFY_API_SECRET"
  | "SHOPIFY_ORIGIN"
  | "SHOPIFY_TOKEN_REFRESH_MARGIN_MS"
  | "ENCRYPTION_KEY"
  | "REDIS_PREFIX"
>;

function endpointOf(config: TokenConfig, fetch?: typeof globalThis.fetch) {
  return createTokenEndpoint({
    clientId: config.SHOPIFY_API_KEY,
    clientSecret: config.SHOPIFY_API_SECRET,
    originTemplate: config.SHOPIFY_ORIGIN,
    fetch,
  });
}

export function shopTokenProvider(
  config: TokenConfig,
  deps: { db: Db; redis: Redis; log: Logger; fetch?: typeof globalThis.fetch },
): TokenProvider {
  const states = shopTokenStates(deps.db);
  return createTokenProvider({
    sessions: offlineSessions(deps.db, keyFrom(config.ENCRYPTION_KEY)),
    endpoint: endpointOf(config, deps.fetch),
    redis: deps.redis,
    prefix: config.REDIS_PREFIX,
    marginMs: config.SHOPIFY_TOKEN_REFRESH_MARGIN_MS,
    log: deps.log,
    async observe(shop, outcome, reason) {
      if (outcome === "migrated") observeTokenMigration(outcome);
      else observeTokenRefresh(outcome);
      if (outcome === "refreshed" || outcome === "lost-answer-retried" || outcome === "migrated")
        await states.clear(shop);
      else if (outcome === "needs-merchant") await markNeedsMerchant(states, deps.log, shop, reason);
      else await states.mark(shop, "refresh-failing", reason ?? "failed");
    },
    parked: (shop) => parkedFor(states, shop),
    async unpark(shop) {
      await states.clear(shop);
    },
  });
}

/** Why the shop waits for its merchant, or null: what every process asks before calling Shopify. */
async function parkedFor(states: ShopTokenStates, shop: string): Promise<string | null> {
  const s = await states.get(shop);
  return s?.state === "needs-merchant" ? (s.reason ?? "refused") : null;
}

/** The one way a refusal is recorded (refresh, 401, migration): the same state, line and metric. */
async function markNeedsMerchant(states: ShopTokenStates, log: Logger, shop: string, reason = "refused") {
  if (await states.mark(shop, "needs-merchant", reason))
    log.warn({ shop, reason }, "Shopify refused the shop's offline token: the merchant must open the app");
}

export function tokenMigrationDeps(
  config: TokenConfig,
  deps: { db: Db; log: Logger; fetch?: typeof globalThis.fetch },
): MigrationDeps {
  const states = shopTokenStates(deps.db);
  return {
    db: deps.db,
    sessions: offlineSessions(deps.db, keyFrom(config.ENCRYPTION_KEY)),
    endpoint: endpointOf(config, deps.fetch),
    log: deps.log,
    async observe(shop, outcome, reason) {
      observeTokenMigration(outcome);
      if (outcome === "needs-merchant") await markNeedsMerchant(states, deps.log, shop, reason);
    },
    parked: (shop) => parkedFor(states, shop),
  };
}
