import type { StorefrontQuestion } from "../../reviews";
import { resolveLocale, type StorefrontLocale } from "../proxy/reviews-query";

// The questions of a product a page at a time. The service answers all of a product's questions
// in one array ("paging is done by the caller") in an order it does not document, so the app keeps
// only the published ones, puts the newest first, and cuts the page itself: a page is the same
// whichever order the service used.

export const QUESTIONS_PAGE_SIZE = 5;
export const QUESTIONS_MAX_PAGE_SIZE = 20;

/** One question as the `questions-page` snippet draws it. */
export interface PageQuestion {
  id: string;
  name: string;
  date: string;
  text: string;
  answer: { text: string; date: string } | null;
}

/** What the `questions-page` snippet receives (its `{% doc %}` documents each). */
export interface QuestionsPageVars {
  questions: PageQuestion[];
  page: number;
  pages: number;
  total: number;
}

export interface QuestionsQuery {
  page: number;
  pageSize: number;
  locale: StorefrontLocale;
}

const SHOPIFY_PARAMS = new Set(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"]);
const str = (v: unknown) => (typeof v === "string" ? v : "");

export function parseQuestionsQuery(
  search: URLSearchParams,
): { ok: true; query: QuestionsQuery } | { ok: false; message: string } {
  const int = (name: string, fallback: number, max: number) => {
    const raw = search.get(name);
    if (raw === null || raw === "") return fallback;
    const n = Number(raw);
    return /^\d{1,4}$/.test(raw) && n >= 1 && n <= max ? n : null;
  };
  for (const key of new Set(search.keys())) {
    if (!SHOPIFY_PARAMS.has(key) && !["page", "pageSize", "locale"].includes(key))
      return { ok: false, message: `${key} is not a parameter of this page (page, pageSize, locale)` };
  }
  const page = int("page", 1, 1000);
  if (page === null) return { ok: false, message: "page must be a whole number from 1 to 1000" };
  const pageSize = int("pageSize", QUESTIONS_PAGE_SIZE, QUESTIONS_MAX_PAGE_SIZE);
  if (pageSize === null)
    return { ok: false, message: `pageSize must be a whole number from 1 to ${QUESTIONS_MAX_PAGE_SIZE}` };
  return { ok: true, query: { page, pageSize, locale: resolveLocale(search.get("locale") ?? undefined) } };
}

/** Published questions, newest first (ties by id, so pages never overlap), in the snippet's shape. */
export function publishedQuestions(all: readonly StorefrontQuestion[]): PageQuestion[] {
  return all
    .filter((q) => q.status === undefined || q.status === "published")
    .filter((q) => str(q.text).trim() !== "")
    .map((q) => {
      const reply = (q.reply ?? null) as { text?: unknown; created?: unknown } | null;
      return {
        id: q._id,
        name: str(q.name).trim(),
        date: str(q.created),
        text: str(q.text),
        answer: reply && str(reply.text).trim() ? { text: str(reply.text), date: str(reply.created) } : null,
      };
    })
    .sort((a, b) => (a.date === b.date ? (a.id < b.id ? 1 : -1) : a.date < b.date ? 1 : -1));
}

export function questionsPage(
  all: readonly PageQuestion[],
  query: Pick<QuestionsQuery, "page" | "pageSize">,
): QuestionsPageVars {
  const pages = Math.max(1, Math.ceil(all.length / query.pageSize));
  const page = Math.min(query.page, pages);
  return { questions: all.slice((page - 1) * query.pageSize, page * query.pageSize), page, pages, total: all.length };
}
