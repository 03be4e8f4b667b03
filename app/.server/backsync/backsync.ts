import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { ReviewsClient } from "../reviews";
import { type AdminGraphql, ShopifyApiError } from "../shopify";
import type { ShopSettings } from "../settings";
import { createBackSyncState, feedMemoryOf, type BackSyncState } from "./backsync-state.repository";
import { DEFINITIONS_CHANGED_AT, enableRatingDefinitions } from "./definitions";
import { backfillRatingValues } from "./rating-value-backfill";
import { sendTriggers, triggersFor } from "./flow-triggers";
import { createFlowTriggerUse } from "../flow";
import { indexCustomerReviews } from "../customers";
import {
  collectedSince,
  collectedTriggers,
  readCollectedSince,
  REVIEW_COLLECTED,
  type CollectedRead,
} from "./review-collected";
import { emptyStats, refreshProducts, type RefreshStats } from "./product-refresh";
import { findDrift } from "./reconcile";
import { changedProducts, readReviewChanges, unknownProducts } from "./review-feed";
import { touchedProducts } from "../activity";
import {
  GROUPS_MAX_AGE_MS,
  groupsReadKey,
  readGroupMembership,
  regrouped,
  withGroupMates,
  type GroupMembership,
} from "./group-membership";
import { readShopData, shopDataDigest, writeShopData } from "./shop-data-sync";
import type { Db } from "../db";
import { orderLinksFromMirror, syndicateReviews, type SyndicationResult } from "../shopapp";

// One back-sync run of one shop (the worker job calls it; the demo and the benchmark too):
// 1. the product definitions (definitions.ts), once per shop and again when the set grew;
// 2. the review-change feed since the shop's last read → the products it touches are refreshed →
//    Flow triggers for the reviews in it, and "review collected" for the reviews submitted since
//    the last run when a workflow of the shop uses it (review-collected.ts) → the memories move on
//    (only once all of that is done, so a failed run is read again: refreshes and triggers are
//    no-ops the second time);
//    with them, their group mates and the products whose product group changed since the last run
//    (a group's products show the group's reviews, so their metafields move together), and the
//    products the storefront named since (a helpful vote: touched-products.ts); the SKUs of
//    reviews the service shows without their product are returned for the caller to resend;
// 3. the full reconciliation from the product report, after connect (never run yet) and when asked
//    (daily);
// 4. the shop-wide app-data metafield, written only when it changed, and read from the service only
//    when the run found a change or an hour has passed (a quiet shop's poll is then one call);
// 5. Shop app syndication (app/.server/shopapp/): the feed's changes written as, or deleted from,
//    Shopify's standard product_review metaobjects, after a first full pass; before the feed's
//    memory moves on, so a failed run syndicates the same changes again (idempotent by handle).

export interface BackSyncDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  log: Logger;
  shop: { id: string; domain: string };
  gql: AdminGraphql;
  reviews: ReviewsClient;
  settings: ShopSettings;
  signal?: AbortSignal;
}

export interface BackSyncResult {
  definitions: { enabled: string[]; alreadyOn: string[] } | null;
  /** `products`: refreshed for the feed's changes, their group mates and changed groups. */
  feed: { changes: number; products: number; pages: number; cursor: string | null };
  /** SKUs of reviews in the feed whose product the service does not know (its `product` is null). */
  unknownSkus: string[];
  reconcile: { rows: number; drifted: number } | null;
  refresh: RefreshStats;
  flow: { sent: number; alreadySent: number; refused: number };
  /** Reviews of this run put in the customer → review index, and those whose customer the app does not know. */
  customers: { indexed: number; unresolved: number };
  /** The read by submission date: null when no workflow of the shop uses "review collected". */
  collected: { reviews: number; pages: number; cursor: string; truncated: boolean } | null;
  /** "not read": a quiet run that left the store's figures for a later one (at most an hour). */
  shopData: "written" | "unchanged" | "not read";
  /** Shop app syndication; "failed": Shopify refused it for good this run (logged; the rest went on). */
  shopApp: SyndicationResult | "failed";
}

/** How long a quiet shop's store figures go without a read. */
export const SHOP_DATA_MAX_AGE_MS = 3_600_000;

/** The settings the shop data carries: a change of them is read at the next run. */
function shopDataStamp(settings: ShopSettings): string {
  return `guestQuestions=${settings.storefront.guestQuestions}`;
}

function addStats(a: RefreshStats, b: RefreshStats): RefreshStats {
  const out = { ...a };
  for (const k of Object.keys(b) as (keyof RefreshStats)[]) out[k] += b[k];
  return out;
}

/**
 * Reviews submitted since the last run, read only when a workflow of the shop uses the trigger:
 * the read costs a call per poll, and most shops have no such workflow.
 */
async function readCollected(deps: BackSyncDeps, cursor: string | null): Promise<CollectedRead | null> {
  const use = await createFlowTriggerUse(deps.db).get(deps.shop.id, REVIEW_COLLECTED);
  if (!use?.inUse) return null;
  const shop = await deps.db.shop.findUnique({ where: { id: deps.shop.id }, select: { connectedAt: true } });
  const since = collectedSince({ cursor, turnedOnAt: use.changedAt, connectedAt: shop?.connectedAt ?? null });
  return readCollectedSince(deps.reviews.admin, since, { signal: deps.signal });
}

// A refusal that would come again (a userError of the definition) must not hold the ratings back:
// it is logged and the run goes on. Anything worth retrying fails the run, which reads the same
// changes again.
async function syndicate(
  deps: BackSyncDeps,
  changes: Parameters<typeof syndicateReviews>[1],
  log: Logger,
): Promise<BackSyncResult["shopApp"]> {
  try {
    return await syndicateReviews(
      {
        gql: deps.gql,
        redis: deps.redis,
        prefix: deps.prefix,
        shopId: deps.shop.id,
        reviews: deps.reviews.admin,
        orderLinks: orderLinksFromMirror(deps.db),
        language: null,
        variantKey: deps.settings.catalog.variantKey,
        log,
        signal: deps.signal,
      },
      changes,
    );
  } catch (error) {
    if (error instanceof ShopifyApiError && error.kind === "permanent") {
      log.error({ err: error.message }, "Shop app syndication refused");
      return "failed";
    }
    throw error;
  }
}

export async function runBackSync(deps: BackSyncDeps, opts: { reconcile?: boolean } = {}): Promise<BackSyncResult> {
  const state: BackSyncState = createBackSyncState(deps.db);
  const shopId = deps.shop.id;
  const log = deps.log.child({ shop: deps.shop.domain });
  const refreshDeps = { shopId, gql: deps.gql, reviews: deps.reviews, state, log, signal: deps.signal };
  const current = await state.get(shopId);

  let definitions: BackSyncResult["definitions"] = null;
  if (!current?.definitionsEnabledAt || current.definitionsEnabledAt < DEFINITIONS_CHANGED_AT) {
    definitions = await enableRatingDefinitions(deps.gql);
    // Brought up to date (not a first run, whose reconciliation writes everything): the products
    // written before the new definition get its metafield.
    if (current?.definitionsEnabledAt) {
      const backfill = await backfillRatingValues({ shopId, gql: deps.gql, state, log });
      log.info(backfill, "filterable ratings written on the products rated before");
    }
    await state.update(shopId, { definitionsEnabledAt: new Date() });
  }

  const feed = await readReviewChanges(deps.reviews.admin, feedMemoryOf(current), { signal: deps.signal });
  const groupsKey = `${deps.prefix}:backsync:groups:${shopId}`;
  const groupsStored = (await deps.redis.get(groupsKey)) ?? "{}";
  const groupsBefore = JSON.parse(groupsStored) as GroupMembership;
  const groupsRead = groupsReadKey(deps.prefix, shopId);
  const readGroups = feed.changes.length > 0 || (await deps.redis.exists(groupsRead)) === 0;
  const groups = readGroups ? await readGroupMembership(deps.reviews.admin, { signal: deps.signal }) : groupsBefore;
  const touched = await touchedProducts(deps.redis, deps.prefix, deps.shop.domain);
  const products = withGroupMates(
    [...changedProducts(feed.changes), ...regrouped(groupsBefore, groups), ...touched.ids],
    groups,
  );
  let refresh = products.length ? await refreshProducts(refreshDeps, products) : emptyStats();
  const collected = await readCollected(deps, current?.collectedCursor ?? null);
  if (collected?.truncated) log.warn({ pages: collected.pages }, "review collected: a burst beyond the read's bound");
  const flow = await sendTriggers({ shopId, gql: deps.gql, state, log }, [
    ...triggersFor(feed.changes, deps.settings.flow.negativeRatingAtOrBelow),
    ...collectedTriggers(collected?.reviews ?? []),
  ]);
  // Ids only, for the customer details block (app/.server/customers/).
  const customers = await indexCustomerReviews(deps.db, shopId, [...feed.changes, ...(collected?.reviews ?? [])]);
  const shopApp = await syndicate(deps, feed.changes, log);
  // A quiet poll writes neither (most polls at scale are quiet).
  await state.saveFeedMemory(shopId, feed.memory, current);
  if (collected && collected.cursor !== current?.collectedCursor)
    await state.update(shopId, { collectedCursor: collected.cursor });
  if (JSON.stringify(groups) !== groupsStored) await deps.redis.set(groupsKey, JSON.stringify(groups));
  if (readGroups) await deps.redis.set(groupsRead, "1", "PX", GROUPS_MAX_AGE_MS);
  await touched.done();

  let reconcile: BackSyncResult["reconcile"] = null;
  if (opts.reconcile || !current?.reconciledAt) {
    const written = new Map((await state.written(shopId)).map((d) => [d.productId, d]));
    const drift = await findDrift(deps.reviews, written, (ids) => state.digests(shopId, ids), deps.signal);
    reconcile = { rows: drift.rows, drifted: drift.drifted.length };
    if (drift.drifted.length) refresh = addStats(refresh, await refreshProducts(refreshDeps, drift.drifted));
    await state.update(shopId, { reconciledAt: new Date() });
  }

  // The store's figures (store reviews, top rated, carousel: three calls) follow the reviews: read
  // when this run found a change, reconciled or is the first, when the settings they carry changed,
  // and otherwise at most once an hour (what the feed cannot see: a store review, the service's
  // top-rated settings). A quiet shop's poll is then one call, the feed (the groups are read with
  // the figures' hourly read, or when the feed changed or the admin changed one).
  const freshKey = `${deps.prefix}:backsync:shop-data-read:${shopId}`;
  const stamp = shopDataStamp(deps.settings);
  const changed = feed.changes.length > 0 || products.length > 0 || reconcile !== null || definitions !== null;
  let shopData: BackSyncResult["shopData"] = "unchanged";
  if (changed || !current?.shopDataDigest || (await deps.redis.get(freshKey)) !== stamp) {
    const data = await readShopData({
      reviews: deps.reviews,
      redis: deps.redis,
      prefix: deps.prefix,
      shop: deps.shop.domain,
      guestQuestions: deps.settings.storefront.guestQuestions,
      signal: deps.signal,
    });
    const digest = shopDataDigest(data);
    if (digest !== current?.shopDataDigest) {
      await writeShopData(deps.gql, data);
      await state.update(shopId, { shopDataDigest: digest });
      shopData = "written";
    }
    await deps.redis.set(freshKey, stamp, "PX", SHOP_DATA_MAX_AGE_MS);
  } else {
    shopData = "not read";
  }

  const result: BackSyncResult = {
    definitions,
    unknownSkus: unknownProducts(feed.changes),
    feed: { changes: feed.changes.length, products: products.length, pages: feed.pages, cursor: feed.memory.cursor },
    reconcile,
    refresh,
    flow,
    customers,
    collected: collected && {
      reviews: collected.reviews.length,
      pages: collected.pages,
      cursor: collected.cursor,
      truncated: collected.truncated,
    },
    shopData,
    shopApp,
  };
  // A poll that found nothing is a debug line: at scale most are, tens of thousands an hour.
  const found = changed || shopData === "written" || flow.sent > 0;
  log[found ? "info" : "debug"]({ feed: result.feed, reconcile, refresh, flow, shopData }, "back-sync run done");
  return result;
}
