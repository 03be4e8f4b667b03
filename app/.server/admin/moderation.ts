import { reviewsListQuerySchema, type AdminReview, type ReviewsClient, type ReviewsListQuery } from "../reviews";
import { ShopNotConnectedError } from "../shops";
import type { AppContext } from "../context.server";
import { reviewsFor } from "./reviews-client";
import { requestBackSync } from "../backsync";
import { orMessage, serviceErrorMessage } from "./service-errors";
import type { UiMessage } from "../../shared/messages";
import { safeUrl } from "../security";
import { createOrderStateRepository } from "../orders";
import {
  createCustomerReviewIndex,
  customerOfReview,
  customerReviewsPage,
  type CustomerReviewItem,
} from "../customers";

// The moderation queue: the service's review list with every filter its Admin API takes, read
// from the page's URL and checked against the client's own schema (a bad filter is named, never
// sent), and approve/reject of one or many reviews with a result per review.

const BOOLEAN_FILTERS = ["hasText", "hasPicture", "hasVideo", "hasReply", "complete", "autoModerated"] as const;
const TEXT_FILTERS = ["sku", "tags", "topics", "from", "to"] as const;

/** The filters as the page's URL holds them (what the filter form shows). */
export type ReviewFilterForm = Record<string, string>;

export function readReviewQuery(params: URLSearchParams): {
  query: ReviewsListQuery;
  form: ReviewFilterForm;
  invalid: string[];
} {
  const form: ReviewFilterForm = {};
  const raw: Record<string, unknown> = { includeOrderData: true };
  const status = params.get("status") ?? "pending";
  form.status = status;
  if (status !== "all") raw.status = status;
  for (const k of TEXT_FILTERS) {
    const v = params.get(k)?.trim();
    if (v) raw[k] = form[k] = v;
  }
  const rating = params.get("rating");
  if (rating) {
    form.rating = rating;
    raw.rating = /^\d+$/.test(rating) ? Number(rating) : rating;
  }
  for (const k of BOOLEAN_FILTERS) {
    const v = params.get(k);
    if (v === "true" || v === "false") {
      form[k] = v;
      raw[k] = v === "true";
    }
  }
  const order = params.get("order") ?? "created,-1";
  form.order = order;
  raw.order = order;
  const skip = Number(params.get("skip") ?? 0);
  raw.skip = Number.isInteger(skip) && skip >= 0 ? skip : 0;
  const parsed = reviewsListQuerySchema.safeParse(raw);
  if (parsed.success) {
    if (parsed.data.from && parsed.data.to && parsed.data.from > parsed.data.to) {
      const { from: _from, to: _to, ...rest } = parsed.data;
      return { query: rest, form, invalid: ["from", "to"] };
    }
    return { query: parsed.data, form, invalid: [] };
  }
  // Drop what the schema refuses, and say which filters those were.
  const invalid = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
  for (const k of invalid) delete raw[k];
  return { query: reviewsListQuerySchema.parse(raw), form, invalid };
}

export interface ReviewRow {
  id: string;
  rating: number;
  status: string;
  name: string;
  text: string;
  productKey: string;
  productName: string | null;
  created: string | null;
  verified: boolean;
  pictures: string[];
  video: string | null;
  reply: { text: string; created: string | null } | null;
  order: string | null;
  /** The order's name (#1037) when the app kept it, else null: the page then shows `order`. */
  orderName: string | null;
  /** The service's user id of the writer (the Shopify customer id when the app sent the order). */
  userId: string | null;
  /** Attributes by the title the service has for them: stars ("Quality" 4 of 5), or a chosen answer. */
  attributes: { title: string; value: number; max: number; response: string | null }[];
}

const str = (v: unknown) => (typeof v === "string" ? v : null);

export function reviewRow(r: AdminReview): ReviewRow {
  const extra = r as Record<string, unknown>;
  const reply = extra.reply as { text?: unknown; created?: unknown } | null | undefined;
  const video = extra.video as { url?: unknown } | null | undefined;
  const product = (r.product ?? null) as Record<string, unknown> | null;
  return {
    id: r._id,
    rating: r.rating,
    status: r.status,
    name: r.name ?? "",
    text: r.text ?? "",
    productKey: r.sku,
    productName: str(product?.name),
    created: r.created ?? null,
    verified: Boolean(r.verified),
    // The page links and shows these: only what the one URL rule lets through (docs/security.md).
    pictures: (r.pictures ?? []).flatMap((p) => safeUrl(p.url, "admin.review_media") ?? []),
    video: safeUrl(str(video?.url), "admin.review_media"),
    reply: reply && typeof reply.text === "string" ? { text: reply.text, created: str(reply.created) } : null,
    // The service's order id (with includeOrderData). Its `orderName` is the buyer's name, not shown.
    order: r.orderId ?? null,
    orderName: null,
    userId: r.userId ?? null,
    attributes: (r.attributes ?? []).flatMap((a) => {
      const title = str(a.title);
      // Only star attributes are documented; a chosen answer shows when the service sends its words.
      const answer = str(a.response);
      if (a.type !== undefined && a.type !== "stars" && !answer) return [];
      return title && typeof a.value === "number"
        ? [{ title, value: a.value, max: typeof a.scaleMax === "number" ? a.scaleMax : 5, response: answer }]
        : [];
    }),
  };
}

export async function reviewsPage(ctx: AppContext, domain: string, params: URLSearchParams) {
  const { query, form, invalid } = readReviewQuery(params);
  // The client's account read is the connection check: no separate status read before the list.
  let client: ReviewsClient;
  try {
    client = await reviewsFor(ctx, domain);
  } catch (error) {
    if (error instanceof ShopNotConnectedError) return { connected: false as const, form, invalid };
    throw error;
  }
  // The shop's row (for its kept order names) is read while the service answers, not after it.
  const shopRead = ctx.shops.get(domain);
  shopRead.catch(() => {});
  const listed = await orMessage(() => client.admin.listReviews(query));
  if (!listed.ok) return { connected: true as const, form, invalid, error: listed.error };
  const rows = listed.value.results.map(reviewRow);
  const shop = await shopRead;
  // One query for the page: the service answers with its order ids, the merchant knows "#1037".
  const names = await createOrderStateRepository(ctx.db).names(
    shop.id,
    rows.flatMap((r) => r.order ?? []),
  );
  return {
    connected: true as const,
    form,
    invalid,
    skip: query.skip ?? 0,
    total: listed.value.total,
    rows: withOrderNames(rows, names),
  };
}

/**
 * Each row's order name from the names kept by Shopify order id. The service's order id is the
 * Shopify id, or the name itself when the shop sends names (settings: orderIdSource), so an id
 * with no kept name is shown as it is. Pure.
 */
export function withOrderNames(rows: ReviewRow[], names: ReadonlyMap<string, string>): ReviewRow[] {
  return rows.map((r) => ({ ...r, orderName: (r.order && names.get(r.order)) ?? null }));
}

/**
 * The writer's other reviews in this shop, for the review's detail: who wrote it comes from the
 * orders the app sent (its order, else its user id), their reviews from the customer index the
 * back-sync keeps (newest first, one page). A writer the app cannot tie to a customer (a guest, a
 * review from elsewhere) has none to show: `customer` is then false.
 */
export async function buyerReviews(
  ctx: AppContext,
  domain: string,
  review: { id: string; userId: string | null; order: string | null },
): Promise<{ customer: boolean; reviews: CustomerReviewItem[]; more: boolean }> {
  const shop = await ctx.shops.get(domain);
  const index = createCustomerReviewIndex(ctx.db);
  const lookup = await index.lookup(shop.id, {
    orderIds: review.order ? [review.order] : [],
    userIds: review.userId ? [review.userId] : [],
  });
  const customerId = customerOfReview(
    { _id: review.id, sku: "", rating: 0, status: "", userId: review.userId, orderId: review.order },
    lookup,
  );
  if (!customerId) return { customer: false, reviews: [], more: false };
  const client = await reviewsFor(ctx, domain);
  const page = await customerReviewsPage({ index, admin: client.admin }, shop.id, customerId, 1);
  return { customer: true, reviews: page.reviews.filter((r) => r.id !== review.id), more: page.hasNext };
}

export interface ModerationResult {
  done: string[];
  failed: { id: string; error: UiMessage }[];
}

/** Approves or rejects each review (a few at a time), one result per review: partial failures are named. */
export async function moderateReviews(
  ctx: AppContext,
  domain: string,
  ids: string[],
  approved: boolean,
): Promise<ModerationResult> {
  const client = await reviewsFor(ctx, domain);
  const result: ModerationResult = { done: [], failed: [] };
  const queue = [...new Set(ids)];
  await Promise.all(
    Array.from({ length: Math.min(4, queue.length) }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          await client.admin.moderateReview(id, approved);
          result.done.push(id);
        } catch (error) {
          result.failed.push({ id, error: serviceErrorMessage(error) });
        }
      }
    }),
  );
  // The storefront shows a moderation at once rather than at the next poll; if this cannot be
  // queued the minute's poll still brings it, so it never fails the moderation.
  if (result.done.length > 0) {
    await ctx.shops
      .get(domain)
      .then((shop) => requestBackSync(ctx, shop.id))
      .catch((error: Error) =>
        ctx.log.warn(
          { err: error.message, shop: domain },
          "back-sync after moderation not queued; the next poll brings it",
        ),
      );
  }
  return result;
}
