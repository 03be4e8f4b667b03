import type { Redis } from "ioredis";
import { type AdminGraphql, ShopifyApiError, METAOBJECT_DEFINITION_BY_TYPE } from "../shopify";
import { PRODUCT_REVIEW_TYPE } from "./product-review.mapper";
import { createSyndicationState, type LeftOutReason } from "./syndication-state";

// What the admin shows of the Shop app: whether the shop is in the program (its standard product
// review definition is on, or Shopify refused it to the app), and of the published reviews the
// back-sync met, how many are product_review metaobjects and how many were left out, by reason.
// Numbers only. Shopify's own count of metaobjects is read when a client is given (one point); a
// failure to read it leaves it unknown rather than failing the page.

export const LEFT_OUT_ORDER: readonly LeftOutReason[] = [
  "no_order",
  "no_customer",
  "no_product",
  "no_submitted_at",
  "refused",
];

export interface ShopAppStatus {
  /** "unknown": the back-sync has not asked Shopify yet (no run since the feature came). */
  program: "enabled" | "not-granted" | "unknown";
  /** When Shopify was last asked (ISO), or null. */
  checkedAt: string | null;
  /** The first pass over the published reviews. */
  backfill: "done" | "in-progress" | "not-started";
  /** Published reviews the back-sync met: syndicated + left out. */
  eligible: number;
  syndicated: number;
  leftOut: { reason: LeftOutReason; count: number }[];
  /** product_review metaobjects Shopify holds, when read. */
  inShopify: number | null;
}

export async function shopAppStatus(deps: {
  redis: Redis;
  prefix: string;
  shopId: string;
  gql?: AdminGraphql;
}): Promise<ShopAppStatus> {
  const state = createSyndicationState(deps.redis, deps.prefix, deps.shopId);
  const [program, counts] = await Promise.all([state.program(), state.counts()]);
  const leftOut = LEFT_OUT_ORDER.map((reason) => ({ reason, count: counts.leftOut[reason] ?? 0 })).filter(
    (r) => r.count > 0,
  );
  let inShopify: number | null = null;
  if (deps.gql && program?.state === "enabled") {
    try {
      const data = await deps.gql.query<{ metaobjectDefinitionByType: { metaobjectsCount: number } | null }>(
        METAOBJECT_DEFINITION_BY_TYPE,
        { type: PRODUCT_REVIEW_TYPE },
      );
      inShopify = data.metaobjectDefinitionByType?.metaobjectsCount ?? 0;
    } catch (error) {
      if (!(error instanceof ShopifyApiError)) throw error;
    }
  }
  return {
    program: program?.state ?? "unknown",
    checkedAt: program?.checkedAt ?? null,
    backfill:
      !program || program.state !== "enabled"
        ? "not-started"
        : program.backfill.done
          ? "done"
          : program.backfill.skip > 0
            ? "in-progress"
            : "not-started",
    eligible: counts.syndicated + leftOut.reduce((a, r) => a + r.count, 0),
    syndicated: counts.syndicated,
    leftOut,
    inShopify,
  };
}
