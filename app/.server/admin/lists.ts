import { z } from "zod";
import { ReviewsPermanentError, type AdminQuestion, type NpsResponse } from "../reviews";
import type { AppContext } from "../context.server";
import { reviewsFor } from "./reviews-client";
import { orMessage, serviceErrorMessage } from "./service-errors";
import { statsCache } from "./stats-cache";
import { surveySummary } from "./survey-summary";
import type { UiMessage } from "../../admin/messages";
import { QUESTION_STATUSES, SURVEY_TYPES } from "../../admin/list-options";

// Questions, survey responses and product groups: the service's lists for the session's shop, a
// page at a time (the service chooses its page size), and the product groups' edits.

const skipOf = (params: URLSearchParams) => {
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
  const status = (QUESTION_STATUSES as readonly string[]).includes(requested) ? (requested as (typeof QUESTION_STATUSES)[number]) : "all";
  const skip = skipOf(params);
  if (!(await connected(ctx, domain))) return { connected: false as const, status };
  const listed = await orMessage(async () => (await reviewsFor(ctx, domain)).admin.listQuestions({ status, skip }));
  if (!listed.ok) return { connected: true as const, status, error: listed.error };
  return { connected: true as const, status, skip, total: listed.value.total, rows: listed.value.results.map(questionRow) };
}

// ---- survey responses (NPS) ----------------------------------------------------------------


function surveyRow(r: NpsResponse) {
  return { id: r._id, score: r.rating ?? null, comment: r.comment ?? "", name: r.name ?? "", order: r.orderId ?? null, partial: Boolean(r.partial), created: r.created ?? null };
}

export async function surveysPage(ctx: AppContext, domain: string, params: URLSearchParams) {
  const requested = params.get("type") ?? "all";
  const type = (SURVEY_TYPES as readonly string[]).includes(requested) ? (requested as (typeof SURVEY_TYPES)[number]) : "all";
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
  return { connected: true as const, type, skip, total: listed.value.page.total, rows: listed.value.page.results.map(surveyRow), summary: listed.value.summary };
}

// ---- product groups --------------------------------------------------------------------------

export async function groupsPage(ctx: AppContext, domain: string, params: URLSearchParams) {
  const skip = skipOf(params);
  if (!(await connected(ctx, domain))) return { connected: false as const };
  const listed = await orMessage(async () => (await reviewsFor(ctx, domain)).admin.listProductGroups({ skip }));
  if (!listed.ok) return { connected: true as const, error: listed.error };
  return { connected: true as const, skip, total: listed.value.total, rows: listed.value.result.map((g) => ({ id: g._id, name: g.name, skus: g.skus })) };
}

const groupForm = z.object({
  name: z.string().trim().min(1),
  skus: z
    .string()
    .transform((s) => [...new Set(s.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean))])
    .pipe(z.array(z.string()).min(1)),
});

export type GroupResult =
  | { ok: true; message: UiMessage }
  | { ok: false; fieldErrors?: { name?: UiMessage; skus?: UiMessage }; error?: UiMessage; conflictingSkus?: string[] };

export async function editGroup(ctx: AppContext, domain: string, form: FormData): Promise<GroupResult> {
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const client = await reviewsFor(ctx, domain);
  try {
    if (intent === "delete") {
      await client.admin.deleteProductGroup(id);
      return { ok: true, message: { key: "groups.deleted" } };
    }
    const parsed = groupForm.safeParse({ name: form.get("name") ?? "", skus: form.get("skus") ?? "" });
    if (!parsed.success) {
      const fields = new Set(parsed.error.issues.map((i) => String(i.path[0])));
      return { ok: false, fieldErrors: { ...(fields.has("name") ? { name: { key: "groups.nameRequired" } } : {}), ...(fields.has("skus") ? { skus: { key: "groups.skusRequired" } } : {}) } };
    }
    if (intent === "update" && id) {
      await client.admin.updateProductGroup(id, parsed.data);
      return { ok: true, message: { key: "groups.updated" } };
    }
    await client.admin.createProductGroup(parsed.data);
    return { ok: true, message: { key: "groups.created" } };
  } catch (error) {
    if (error instanceof ReviewsPermanentError && error.reason === "conflict" && error.conflictingSkus?.length) {
      return { ok: false, conflictingSkus: error.conflictingSkus, error: { key: "groups.conflict", params: { skus: error.conflictingSkus.join(", ") } } };
    }
    return { ok: false, error: serviceErrorMessage(error) };
  }
}
