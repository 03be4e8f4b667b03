import { z } from "zod";
import { ReviewsPermanentError, type AdminQuestion, type NpsResponse } from "../reviews";
import type { AppContext } from "../context.server";
import { reviewsFor } from "./reviews-client";
import { requestBackSync } from "../backsync/schedule";
import { orMessage, serviceErrorMessage } from "./service-errors";
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
  // The list (either answer shape, `result` or `results`: the client reads both) and the three
  // groups' totals for the score summary.
  const listed = await orMessage(async () => {
    const [page, promoters, neutral, detractors] = await Promise.all([
      client.admin.listNpsResponses({ type, skip }),
      client.admin.listNpsResponses({ type: "promoters" }),
      client.admin.listNpsResponses({ type: "neutral" }),
      client.admin.listNpsResponses({ type: "detractors" }),
    ]);
    return { page, groups: { promoters: promoters.total, neutral: neutral.total, detractors: detractors.total } };
  });
  if (!listed.ok) return { connected: true as const, type, error: listed.error };
  const rows = listed.value.page.results.map(surveyRow);
  const histogram = Array.from({ length: 11 }, (_, score) => rows.filter((r) => r.score === score).length);
  const g = listed.value.groups;
  const answered = g.promoters + g.neutral + g.detractors;
  const nps = answered ? Math.round(((g.promoters - g.detractors) / answered) * 100) : null;
  return { connected: true as const, type, skip, total: listed.value.page.total, rows, histogram, groups: g, nps };
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
  const result = await changeGroup(ctx, domain, form);
  // A group's products show the group's reviews: the back-sync brings their stars, summary and
  // list together now rather than at the next poll. Not queued: the poll brings it all the same.
  if (result.ok) {
    await ctx.shops
      .get(domain)
      .then((shop) => requestBackSync(ctx.queues, shop.id))
      .catch((error: Error) => ctx.log.warn({ err: error.message, shop: domain }, "back-sync after a group change not queued; the next poll brings it"));
  }
  return result;
}

async function changeGroup(ctx: AppContext, domain: string, form: FormData): Promise<GroupResult> {
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
