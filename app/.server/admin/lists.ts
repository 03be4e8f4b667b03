import type { AdminQuestion, NpsResponse } from "../reviews";
import type { AppContext } from "../context.server";
import { reviewsFor } from "./reviews-client";
import { orMessage } from "./service-errors";
import { statsCache } from "./stats-cache";
import { surveySummary } from "./survey-summary";
import { QUESTION_STATUSES, SURVEY_TYPES } from "../../shared/list-options";
import { createOrderStateRepository } from "../orders";

// Questions and survey responses: the service's lists for the session's shop, a page at a time
// (the service chooses its page size). Product groups: product-groups.ts.

export const skipOf = (params: URLSearchParams) => {
  const n = Number(params.get("skip") ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
};

async function connected(ctx: AppContext, domain: string) {
  return (await ctx.shops.status(domain)).connected;
}

// ---- questions -----------------------------------------------------------------------------

function questionRow(q: AdminQuestion) {
  const reply = (q.reply ?? null) as Record<string, unknown> | null;
  const product = (q.product ?? null) as Record<string, unknown> | null;
  return {
    id: q._id,
    text: q.text ?? "",
    name: q.name ?? "",
    status: q.status ?? "",
    sku: q.sku ?? null,
    productName: typeof product?.name === "string" ? product.name : null,
    created: q.created ?? null,
    answer: typeof reply?.text === "string" ? reply.text : null,
  };
}

export async function questionsPage(ctx: AppContext, domain: string, params: URLSearchParams) {
  const requested = params.get("status") ?? "all";
  const status = (QUESTION_STATUSES as readonly string[]).includes(requested)
    ? (requested as (typeof QUESTION_STATUSES)[number])
    : "all";
  const skip = skipOf(params);
  if (!(await connected(ctx, domain))) return { connected: false as const, status };
  const listed = await orMessage(async () => (await reviewsFor(ctx, domain)).admin.listQuestions({ status, skip }));
  if (!listed.ok) return { connected: true as const, status, error: listed.error };
  return {
    connected: true as const,
    status,
    skip,
    total: listed.value.total,
    rows: listed.value.results.map(questionRow),
  };
}

// ---- survey responses (NPS) ----------------------------------------------------------------

function surveyRow(r: NpsResponse) {
  return {
    id: r._id,
    score: r.rating ?? null,
    comment: r.comment ?? "",
    name: r.name ?? "",
    order: r.orderId ?? null,
    partial: Boolean(r.partial),
    created: r.created ?? null,
  };
}

export async function surveysPage(ctx: AppContext, domain: string, params: URLSearchParams) {
  const requested = params.get("type") ?? "all";
  const type = (SURVEY_TYPES as readonly string[]).includes(requested)
    ? (requested as (typeof SURVEY_TYPES)[number])
    : "all";
  const skip = skipOf(params);
  if (!(await connected(ctx, domain))) return { connected: false as const, type };
  const client = await reviewsFor(ctx, domain);
  // The page of answers shown, and the summary of every answer (cached briefly: it pages through
  // them all). Either answer shape, `result` or `results`: the client reads both.
  const listed = await orMessage(async () => {
    const [page, summary] = await Promise.all([
      client.admin.listNpsResponses({ type, skip }),
      statsCache(ctx.config.ADMIN_STATS_CACHE_MS).get(`${domain}:surveys`, () => surveySummary(client)),
    ]);
    return { page, summary };
  });
  if (!listed.ok) return { connected: true as const, type, error: listed.error };
  const shop = await ctx.shops.get(domain);
  // Orders by the name the merchant knows (#1037) where the app kept it; one query per page.
  const pageRows = listed.value.page.results.map(surveyRow);
  const names = await createOrderStateRepository(ctx.db).names(
    shop.id,
    pageRows.flatMap((r) => r.order ?? []),
  );
  const rows = pageRows.map((r) => ({ ...r, order: (r.order && names.get(r.order)) ?? r.order }));
  return { connected: true as const, type, skip, total: listed.value.page.total, rows, summary: listed.value.summary };
}
