import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { AdminReview, ReviewsAdminApi } from "../reviews";
import {
  type AdminGraphql,
  ShopifyPermanentError,
  ShopifyUserErrors,
  type UserError,
  METAOBJECT_BY_HANDLE,
  METAOBJECT_DELETE,
  METAOBJECT_UPSERT,
} from "../shopify";
import type { OrderLinks } from "./order-links";
import { mapReview, PRODUCT_REVIEW_TYPE, type ReviewContext } from "./product-review.mapper";
import { currentProgram } from "./program";
import { createSyndicationState, type LeftOutReason, type SyndicationState } from "./syndication-state";

// Shop app syndication of one shop, fed by the back-sync: the reviews whose status changed are
// written as standard product_review metaobjects (published) or their metaobject is deleted (removed,
// or no longer tied to an order and customer). Before the first change of a shop in the program,
// one full pass writes every published review (the feed does not replay history), a page at a
// time, going on from where a failed or bounded run stopped.
//
// Idempotent: one handle per review id (metaobjectUpsert), so a retried job or a review met twice
// writes one metaobject. Batches of BATCH reviews: one read of the orders mirror and one Redis round
// trip each. Calls go one at a time through the shop's Admin API client, which waits for the cost
// bucket (and retries THROTTLED answers) before each: syndication never starves the other work of
// the shop for long. Nothing about a reviewer is logged: review ids and Shopify's error codes only.

export const BATCH = 50;
/** Pages of the first full pass per run; the next run goes on from there. */
export const BACKFILL_PAGES_PER_RUN = 100;

export interface SyndicationDeps {
  gql: AdminGraphql;
  redis: Redis;
  prefix: string;
  shopId: string;
  reviews: Pick<ReviewsAdminApi, "listReviews">;
  orderLinks: OrderLinks;
  /** The shop's language (ISO code), when known: the metaobject's `language`. */
  language: string | null;
  variantKey: "id" | "sku";
  log: Logger;
  now?: () => Date;
  signal?: AbortSignal;
}

/**
 * Shopify no longer has the definition (the merchant deleted it, and its metaobjects with it): what
 * the app remembers of the shop's syndication is void. Permanent when it comes back right after the
 * definition was switched on again.
 */
export class ProductReviewDefinitionMissing extends ShopifyPermanentError {}

export interface SyndicationResult {
  program: "enabled" | "not-granted";
  /** The first full pass: "done" (now or before), "partial" (goes on next run), "not-run" (not in program). */
  backfill: "done" | "partial" | "not-run";
  upserted: number;
  deleted: number;
  /** Published reviews that Shopify would not show (no order, no customer, ...): not written. */
  leftOut: number;
  /** Writes Shopify refused (userErrors): counted with reason "refused". */
  refused: number;
}

interface Totals {
  upserted: number;
  deleted: number;
  leftOut: number;
  refused: number;
}

type MetaobjectUserError = UserError & { elementKey?: string | null };

/** Shopify's codes and the keys of the fields they name: never a value (a reviewer's name or text). */
const codesOf = (errors: MetaobjectUserError[]) =>
  errors.map((e) => (e.elementKey ? `${e.code ?? "?"}:${e.elementKey}` : (e.code ?? "?")));

async function deleteMetaobject(gql: AdminGraphql, id: string, signal?: AbortSignal): Promise<void> {
  const data = await gql.query<{ metaobjectDelete: { userErrors: UserError[] } | null }>(
    METAOBJECT_DELETE,
    { id },
    { signal },
  );
  const errors = data.metaobjectDelete?.userErrors ?? [];
  // Gone already (deleted by the merchant, or by an earlier try of this batch): what was wanted.
  if (errors.some((e) => e.code !== "RECORD_NOT_FOUND"))
    throw new ShopifyUserErrors("metaobjectDelete", gql.shop, errors);
}

async function applyBatch(
  deps: SyndicationDeps,
  state: SyndicationState,
  batch: AdminReview[],
  totals: Totals,
): Promise<void> {
  const { gql, signal } = deps;
  const links = await deps.orderLinks(deps.shopId, batch.map((r) => r.orderId ?? "").filter(Boolean));
  const written = await state.metaobjectIds(batch.map((r) => r._id));
  const seenAt = (deps.now?.() ?? new Date()).toISOString();
  const outcome = {
    syndicated: [] as [string, string][],
    leftOut: [] as [string, LeftOutReason][],
    gone: [] as string[],
  };
  for (const [i, review] of batch.entries()) {
    const ctx: ReviewContext = {
      order: review.orderId ? (links.get(review.orderId) ?? null) : null,
      language: deps.language,
      seenAt,
      variantKey: deps.variantKey,
    };
    const mapped = mapReview(review, ctx);
    if (mapped.kind === "syndicate") {
      const data = await gql.query<{
        metaobjectUpsert: { metaobject: { id: string } | null; userErrors: MetaobjectUserError[] } | null;
      }>(
        METAOBJECT_UPSERT,
        { handle: { type: PRODUCT_REVIEW_TYPE, handle: mapped.handle }, metaobject: { fields: mapped.fields } },
        { signal },
      );
      const errors = data.metaobjectUpsert?.userErrors ?? [];
      if (errors.some((e) => e.code === "UNDEFINED_OBJECT_TYPE"))
        throw new ProductReviewDefinitionMissing("metaobjectUpsert: no product_review definition", { shop: gql.shop });
      const id = data.metaobjectUpsert?.metaobject?.id;
      if (errors.length === 0 && id) {
        outcome.syndicated.push([review._id, id]);
        totals.upserted++;
      } else {
        // The same fields would be refused again: counted and shown, not retried.
        outcome.leftOut.push([review._id, "refused"]);
        totals.refused++;
        deps.log.warn({ review: review._id, errors: codesOf(errors) }, "Shopify refused a product review metaobject");
      }
      continue;
    }
    let id = written[i];
    if (!id && mapped.reason === "not_published") {
      // Nothing recorded (a lost memory, or a review that was never published): ask by handle, one
      // point, rather than leave a removed review in the Shop app.
      const found = await gql.query<{ metaobjectByHandle: { id: string } | null }>(
        METAOBJECT_BY_HANDLE,
        { handle: { type: PRODUCT_REVIEW_TYPE, handle: mapped.handle } },
        { signal },
      );
      id = found.metaobjectByHandle?.id ?? null;
    }
    if (id) {
      await deleteMetaobject(gql, id, signal);
      totals.deleted++;
    }
    if (mapped.reason === "not_published") outcome.gone.push(review._id);
    else {
      outcome.leftOut.push([review._id, mapped.reason]);
      totals.leftOut++;
    }
  }
  await state.record(outcome);
}

async function applyAll(deps: SyndicationDeps, state: SyndicationState, reviews: AdminReview[], totals: Totals) {
  // The newest status of each review wins (the feed lists the latest moderation first).
  const byId = new Map<string, AdminReview>();
  for (const r of reviews) if (!byId.has(r._id)) byId.set(r._id, r);
  const unique = [...byId.values()];
  for (let i = 0; i < unique.length; i += BATCH) await applyBatch(deps, state, unique.slice(i, i + BATCH), totals);
}

export async function syndicateReviews(
  deps: SyndicationDeps,
  changes: readonly AdminReview[],
): Promise<SyndicationResult> {
  const state = createSyndicationState(deps.redis, deps.prefix, deps.shopId);
  try {
    return await syndicateOnce(deps, state, changes);
  } catch (error) {
    if (!(error instanceof ProductReviewDefinitionMissing)) throw error;
    // Everything written went with the definition: start over, the definition switched on again
    // and every published review written anew. Once: a second refusal is not ours to loop on.
    deps.log.warn("the product_review definition is gone from Shopify: syndication starts over");
    await state.forget();
    return syndicateOnce(deps, state, changes);
  }
}

async function syndicateOnce(
  deps: SyndicationDeps,
  state: SyndicationState,
  changes: readonly AdminReview[],
): Promise<SyndicationResult> {
  const now = deps.now?.() ?? new Date();
  const { program } = await currentProgram(deps.gql, state, now);
  const totals: Totals = { upserted: 0, deleted: 0, leftOut: 0, refused: 0 };
  if (program.state === "not-granted") return { program: "not-granted", backfill: "not-run", ...totals };

  let backfill: SyndicationResult["backfill"] = "done";
  if (!program.backfill.done) {
    let skip = program.backfill.skip;
    let done = false;
    for (let pages = 0; pages < BACKFILL_PAGES_PER_RUN; pages++) {
      // Oldest first: a review published during the pass lands after the pages already read.
      const page = await deps.reviews.listReviews(
        { status: "published", includeOrderData: true, order: "created,1", ...(skip ? { skip } : {}) },
        { signal: deps.signal },
      );
      await applyAll(deps, state, page.results, totals);
      skip += page.results.length;
      if (page.results.length === 0 || skip >= page.total) {
        done = true;
        break;
      }
      await state.saveProgram({ ...program, backfill: { done: false, skip } });
    }
    await state.saveProgram({ ...program, backfill: done ? { done: true } : { done: false, skip } });
    backfill = done ? "done" : "partial";
  }
  await applyAll(deps, state, [...changes], totals);
  return { program: "enabled", backfill, ...totals };
}
