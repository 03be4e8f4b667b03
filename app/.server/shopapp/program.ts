import {
  type AdminGraphql,
  ShopifyAuthError,
  ShopifyUserErrors,
  type UserError,
  STANDARD_METAOBJECT_DEFINITION_ENABLE,
} from "../shopify";
import { PRODUCT_REVIEW_TYPE } from "./product-review.mapper";
import type { ProgramState, SyndicationState } from "./syndication-state";

// Whether the shop is in the Shop app program: its standard product review definition is on. The
// definition is restricted to apps Shopify approved (and their development stores), so asking is
// the only way to know: an app outside the program gets NOT_AUTHORIZED. The answer is kept; a
// refusal is asked again after RECHECK_MS (approval comes from Shopify, with no webhook saying so),
// an enabled definition never again (the app cannot lose it without being uninstalled).

export const RECHECK_MS = 24 * 3_600_000;

export type ProgramOutcome = "enabled" | "already-enabled" | "not-granted";

/** Asks Shopify to switch the definition on; typed by what the caller should do. */
export async function enableProductReviews(gql: AdminGraphql): Promise<ProgramOutcome> {
  let data: { standardMetaobjectDefinitionEnable: { userErrors: UserError[] } | null };
  try {
    data = await gql.query(STANDARD_METAOBJECT_DEFINITION_ENABLE, { type: PRODUCT_REVIEW_TYPE });
  } catch (error) {
    // A shop that has not approved the new scopes yet: GraphQL's ACCESS_DENIED in a 200, while the
    // token itself works. Not in the program for now; a token that no longer works (401) is not this.
    if (error instanceof ShopifyAuthError && error.status === 200) return "not-granted";
    throw error;
  }
  const errors = data.standardMetaobjectDefinitionEnable?.userErrors ?? [];
  if (errors.length === 0) return "enabled";
  if (errors.every((e) => e.code === "TAKEN")) return "already-enabled";
  if (errors.some((e) => e.code === "NOT_AUTHORIZED")) return "not-granted";
  // Anything else is not ours to retry: the same call would be refused the same way.
  throw new ShopifyUserErrors("standardMetaobjectDefinitionEnable", gql.shop, errors);
}

/** The program state for this run: asks Shopify only when nothing is known or a refusal is old. */
export async function currentProgram(
  gql: AdminGraphql,
  state: SyndicationState,
  now: Date,
): Promise<{ program: ProgramState; asked: boolean }> {
  const known = await state.program();
  if (known?.state === "enabled") return { program: known, asked: false };
  if (known && now.getTime() - Date.parse(known.checkedAt) < RECHECK_MS) return { program: known, asked: false };
  const outcome = await enableProductReviews(gql);
  const program: ProgramState =
    outcome === "not-granted"
      ? { state: "not-granted", checkedAt: now.toISOString(), backfill: { done: false, skip: 0 } }
      : { state: "enabled", checkedAt: now.toISOString(), backfill: { done: false, skip: 0 } };
  await state.saveProgram(program);
  return { program, asked: true };
}
