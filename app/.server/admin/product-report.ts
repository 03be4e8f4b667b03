import { productReportQuerySchema, type ProductReportQuery, type ProductReportRow } from "../reviews";
import type { AppContext } from "../context.server";
import { reviewsFor } from "./reviews-client";
import { orMessage } from "./service-errors";
import { statsCache } from "./stats-cache";
import { reviewTrends } from "./review-trends";
import { translator } from "../../shared/i18n/translate";
import type { Locale } from "../../shared/i18n/locale";

// The product report: the service's per-product review counts and averages with its eight orders,
// a date range, only-published and categories; on the page a page at a time, and as CSV streamed
// page after page from the service to the merchant (never the whole report in memory).

const CSV_PAGE = 100;

export function readReportQuery(params: URLSearchParams): {
  query: ProductReportQuery;
  form: Record<string, string>;
  invalid: string[];
} {
  const form: Record<string, string> = {};
  const raw: Record<string, unknown> = {};
  for (const k of ["order", "dateFrom", "dateTo", "categories"] as const) {
    const v = params.get(k)?.trim();
    if (v) form[k] = v;
  }
  raw.order = form.order ?? "MoreReviews";
  form.order = String(raw.order);
  if (form.dateFrom) raw.dateFrom = form.dateFrom;
  if (form.dateTo) raw.dateTo = form.dateTo;
  if (params.get("onlyPublished") === "true") {
    form.onlyPublished = "true";
    raw.onlyPublished = true;
  }
  const categories = (form.categories ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  if (categories.length) raw.category = categories;
  const skip = Number(params.get("skip") ?? 0);
  if (Number.isInteger(skip) && skip > 0) raw.skip = skip;
  const invalid: string[] = [];
  let parsed = productReportQuerySchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) invalid.push(String(issue.path[0]));
    for (const k of invalid) delete raw[k];
    if (invalid.includes("order")) raw.order = "MoreReviews";
    parsed = productReportQuerySchema.safeParse(raw);
  }
  const query = parsed.success ? parsed.data : {};
  if (query.dateFrom && query.dateTo && query.dateFrom > query.dateTo) {
    invalid.push("dateFrom", "dateTo");
    delete query.dateFrom;
    delete query.dateTo;
  }
  return { query, form, invalid };
}

export async function reportPage(ctx: AppContext, domain: string, params: URLSearchParams) {
  const { query, form, invalid } = readReportQuery(params);
  if (!(await ctx.shops.status(domain)).connected) return { connected: false as const, form, invalid };
  const listed = await orMessage(async () => {
    const client = await reviewsFor(ctx, domain);
    // The charts follow the filters, not the page: one computation serves every page of the table.
    const { skip: _skip, order: _order, ...filters } = query;
    const key = `${domain}:review-trends:${JSON.stringify(filters)}`;
    const [report, trends] = await Promise.all([
      client.admin.getProductReport(query),
      statsCache(ctx.config.ADMIN_STATS_CACHE_MS).get(key, () => reviewTrends(client, filters)),
    ]);
    return { report, trends };
  });
  if (!listed.ok) return { connected: true as const, form, invalid, error: listed.error };
  const { report, trends } = listed.value;
  return {
    connected: true as const,
    form,
    invalid,
    skip: query.skip ?? 0,
    total: report.total,
    rows: report.result.map(reportRow),
    trends,
  };
}

export function reportRow(r: ProductReportRow) {
  return {
    sku: r.sku,
    name: r.name ?? null,
    categories: r.categories ?? [],
    reviewCount: r.reviews.reviewCount,
    aggregateRating: r.reviews.aggregateRating,
    publishedCount: r.reviews.publishedCount,
    publishedAggregateRating: r.reviews.publishedAggregateRating,
    withPictures: r.reviews.withPictures ?? null,
    withVideo: r.reviews.withVideo ?? null,
    withText: r.reviews.withText ?? null,
  };
}

const csvCell = (v: unknown) => {
  const text = v === null || v === undefined ? "" : Array.isArray(v) ? v.join("; ") : String(v);
  // Quoted when needed; a leading = + - @ is prefixed so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The whole report for the query, as CSV, read from the service a page at a time as it is sent. */
export async function reportCsv(
  ctx: AppContext,
  domain: string,
  params: URLSearchParams,
  locale: Locale,
): Promise<ReadableStream<Uint8Array>> {
  const { query } = readReportQuery(params);
  const client = await reviewsFor(ctx, domain);
  const t = translator(locale);
  const encoder = new TextEncoder();
  const header = [
    t("report.col.sku"),
    t("report.col.product"),
    t("report.col.categories"),
    t("report.col.reviews"),
    t("report.col.rating"),
    t("report.col.published"),
    t("report.col.publishedRating"),
    t("report.col.pictures"),
    t("report.col.video"),
    t("report.col.text"),
  ];
  let skip = 0;
  let total = Infinity;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        first = false;
        // A byte-order mark: spreadsheets then read the accents of names right.
        controller.enqueue(encoder.encode(`\uFEFF${header.map(csvCell).join(",")}\r\n`));
        return;
      }
      if (skip >= total) return controller.close();
      const page = await client.admin.getProductReport({ ...query, skip, limit: CSV_PAGE });
      total = page.total;
      if (!page.result.length) return controller.close();
      skip += page.result.length;
      const lines = page.result
        .map(reportRow)
        .map((r) =>
          [
            r.sku,
            r.name,
            r.categories,
            r.reviewCount,
            r.aggregateRating,
            r.publishedCount,
            r.publishedAggregateRating,
            r.withPictures,
            r.withVideo,
            r.withText,
          ]
            .map(csvCell)
            .join(","),
        );
      controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
    },
  });
}
