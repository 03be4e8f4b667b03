import type { Logger } from "pino";
import type { Db } from "../db";
import { ShopifyReauthRequiredError, ShopifyRetryableError } from "./errors";
import type { OfflineSessions } from "./offline-sessions";
import type { TokenEndpoint, TokenPair } from "./token-endpoint";

// Shops installed before expiring tokens hold a non-expiring offline token, refused from 2027-01-01.
// Each is exchanged once for an expiring pair, without the merchant (Shopify's token exchange for
// migrating without a user session). The exchange is idempotent on Shopify's side: asked again with
// the same original token within 7 days it answers the same pair, so a lost answer is recovered by
// asking again; the pair is stored only over the row that still holds the original token.
// A shop that waits for its merchant is not asked for (Shopify refused it already), and a refusal of
// a token the row no longer holds (migrated or re-authorised meanwhile) marks nothing.

export type MigrationOutcome = "migrated" | "already-expiring" | "needs-merchant" | "failed";

export interface MigrationDeps {
  db: Db;
  sessions: OfflineSessions;
  endpoint: TokenEndpoint;
  log: Logger;
  /** Asks for one shop in a row, when an answer is lost. */
  attempts?: number;
  retryDelayMs?: number;
  /** Every shop's outcome (metrics, the shop's token state). */
  observe?: (shop: string, outcome: MigrationOutcome, reason?: string) => Promise<void> | void;
  /** Why the shop waits for its merchant, or null (see token-provider.ts): then Shopify is not asked. */
  parked?: (shop: string) => Promise<string | null>;
}

/** Shops whose offline session holds a non-expiring token. */
export async function shopsToMigrate(db: Db, shop?: string): Promise<string[]> {
  const rows = await db.session.findMany({
    where: { isOnline: false, expires: null, refreshToken: null, ...(shop ? { shop } : {}) },
    select: { shop: true },
    orderBy: { shop: "asc" },
  });
  return [...new Set(rows.map((r) => r.shop))];
}

export async function migrateShopToken(deps: MigrationDeps, shop: string): Promise<MigrationOutcome> {
  const attempts = deps.attempts ?? 3;
  const session = await deps.sessions.read(shop);
  if (session.expires !== null || session.sealedRefreshToken !== null) return "already-expiring";
  if (await deps.parked?.(shop)) return "needs-merchant";
  let pair: TokenPair | undefined;
  for (let attempt = 1; !pair; attempt++) {
    try {
      pair = await deps.endpoint.migrate(shop, session.accessToken);
    } catch (error) {
      if (error instanceof ShopifyReauthRequiredError) {
        const now = await deps.sessions.read(shop).catch(() => null);
        return now && now.accessToken !== session.accessToken ? "already-expiring" : "needs-merchant";
      }
      if (!(error instanceof ShopifyRetryableError) || attempt >= attempts) throw error;
      deps.log.warn(
        { shop, attempt, err: error.message },
        "token migration answer lost; asking again with the original token",
      );
      await new Promise((r) => setTimeout(r, (deps.retryDelayMs ?? 250) * attempt));
    }
  }
  // Another migration (a second worker, the CLI) may have stored the same pair first.
  if (await deps.sessions.replace(session, pair)) return "migrated";
  const now = await deps.sessions.read(shop);
  return now.expires !== null ? "already-expiring" : "failed";
}

export interface MigrationSummary {
  shops: number;
  outcomes: Record<MigrationOutcome, number>;
  /** Shops whose exchange failed for a reason that may pass (asked again on the next run). */
  failed: { shop: string; error: string }[];
  /** Shops left alone: they wait for their merchant, whose next visit brings an expiring pair. */
  waiting: string[];
}

/** Migrates every shop still on a non-expiring token (or one); progress after each shop. */
export async function migrateTokens(
  deps: MigrationDeps,
  opts: {
    shop?: string;
    onProgress?: (done: number, total: number, shop: string, outcome: MigrationOutcome) => void;
  } = {},
): Promise<MigrationSummary> {
  const shops = await shopsToMigrate(deps.db, opts.shop);
  const summary: MigrationSummary = {
    shops: shops.length,
    outcomes: { migrated: 0, "already-expiring": 0, "needs-merchant": 0, failed: 0 },
    failed: [],
    waiting: [],
  };
  for (const [i, shop] of shops.entries()) {
    if (await deps.parked?.(shop)) {
      summary.waiting.push(shop);
      continue;
    }
    let outcome: MigrationOutcome;
    let reason: string | undefined;
    try {
      outcome = await migrateShopToken(deps, shop);
      if (outcome === "needs-merchant") reason = "non-expiring token refused";
    } catch (error) {
      outcome = "failed";
      reason = (error as Error).message;
      summary.failed.push({ shop, error: reason });
    }
    summary.outcomes[outcome]++;
    await deps.observe?.(shop, outcome, reason);
    deps.log.info({ shop, outcome }, "offline token migration");
    opts.onProgress?.(i + 1, shops.length, shop, outcome);
  }
  return summary;
}
