import { z } from "zod";
import type { SummaryOptions } from "../../reviews";

// The query of the block script's read endpoint, `GET <proxy>/products/<sku>/reviews`, checked at
// the edge: a bad value is a 400 that says which parameter and what it takes, never a call
// upstream. Parsed into the client's summary options and one normal form (the cache key's part), so
// `rating=4,5` and `rating=5,4` share a cached answer.

export const SUPPORTED_LOCALES = ["en", "pt-BR", "es"] as const;
export type StorefrontLocale = (typeof SUPPORTED_LOCALES)[number];
export const MAX_PAGE_SIZE = 50;
export const MAX_PAGE = 1000;

const SHOPIFY_PARAMS = new Set(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"]);
const SORT_FIELDS = ["helpfulScore", "created", "rating", "helpful"] as const;

const bool = (name: string) =>
  z.enum(["true", "false"], { message: `${name} must be true or false` }).transform((v) => v === "true");
const list = (sep: string) => (v: string) => [
  ...new Set(
    v
      .split(sep)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];
const intIn = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be a whole number from ${min} to ${max}`);
const text = (name: string) => z.string().max(500, `${name} is too long (500 characters at most)`);

const querySchema = z.object({
  sort: z
    .string()
    .regex(
      new RegExp(`^(${SORT_FIELDS.join("|")}),(asc|desc)$`),
      `sort must be <field>,<order> with field ${SORT_FIELDS.join(", ")} and order asc or desc`,
    )
    .optional(),
  page: intIn("page", 1, MAX_PAGE).optional(),
  pageSize: intIn("pageSize", 1, MAX_PAGE_SIZE).optional(),
  rating: z
    .string()
    .regex(/^[1-5](,[1-5])*$/, "rating must be ratings from 1 to 5 separated by commas, e.g. 5,4")
    .transform((v) =>
      list(",")(v)
        .map(Number)
        .sort((a, b) => b - a),
    )
    .optional(),
  filterMedia: z
    .enum(["pictures", "videos", "any", "none"], { message: "filterMedia must be pictures, videos, any or none" })
    .optional(),
  hasText: bool("hasText").optional(),
  verified: bool("verified").optional(),
  topics: text("topics")
    .transform((v) => list(";")(v).sort())
    .optional(),
  sourceStore: text("sourceStore")
    .transform((v) => list(";")(v).sort())
    .optional(),
  locale: z
    .string()
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, "locale must be a language tag such as en, pt-BR or es")
    .optional(),
});

export interface ReviewsPageQuery {
  options: SummaryOptions & {
    sortField: NonNullable<SummaryOptions["sortField"]>;
    sortOrder: "asc" | "desc";
    page: number;
  };
  locale: StorefrontLocale;
  /** The same request in one normal form: parameters in a fixed order, lists sorted, defaults filled in. */
  normal: string;
  /** The normal form of what the service is asked (the locale left out: it changes only the words). */
  upstream: string;
}

export type QueryResult = { ok: true; query: ReviewsPageQuery } | { ok: false; message: string };

/** The nearest locale the storefront strings exist in: exact, then same language, then English. */
export function resolveLocale(tag: string | undefined): StorefrontLocale {
  if (!tag) return "en";
  const wanted = tag.replace("_", "-").toLowerCase();
  const exact = SUPPORTED_LOCALES.find((l) => l.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split("-")[0];
  return SUPPORTED_LOCALES.find((l) => l.toLowerCase().split("-")[0] === language) ?? "en";
}

export function parseReviewsQuery(search: URLSearchParams, defaults: { pageSize: number }): QueryResult {
  const raw: Record<string, string> = {};
  for (const [key, value] of search) {
    if (SHOPIFY_PARAMS.has(key)) continue;
    if (key in raw)
      return {
        ok: false,
        message: `${key} appears more than once; send one value (lists are comma or semicolon separated)`,
      };
    raw[key] = value;
  }
  const parsed = querySchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => i.message).join("; ") };
  const q = parsed.data;
  const [sortField, sortOrder] = (q.sort ?? "helpfulScore,desc").split(",") as [
    (typeof SORT_FIELDS)[number],
    "asc" | "desc",
  ];
  const options: ReviewsPageQuery["options"] = {
    sortField,
    sortOrder,
    page: q.page ?? 1,
    pageSize: q.pageSize ?? defaults.pageSize,
    ...(q.rating?.length ? { rating: q.rating } : {}),
    ...(q.filterMedia ? { filterMedia: q.filterMedia } : {}),
    ...(q.hasText !== undefined ? { hasText: q.hasText } : {}),
    ...(q.verified !== undefined ? { verified: q.verified } : {}),
    ...(q.topics?.length ? { topics: q.topics } : {}),
    ...(q.sourceStore?.length ? { sourceStore: q.sourceStore } : {}),
  };
  const locale = resolveLocale(q.locale);
  const normalOf = (fields: Record<string, unknown>) =>
    new URLSearchParams(
      Object.entries(fields)
        .map(([k, v]) => [k, Array.isArray(v) ? v.join(k === "rating" ? "," : ";") : String(v)] as [string, string])
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ).toString();
  return {
    ok: true,
    query: { options, locale, normal: normalOf({ ...options, locale }), upstream: normalOf(options) },
  };
}
