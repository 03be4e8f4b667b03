import type { ProductReportQuery, ReviewsClient, ReviewsListQuery } from "../reviews";
import { daysOf, monthOf, monthsBetween, monthsEnding, type MonthKey } from "../../shared/stats/months";
import { pooled, starsAverage, type TrendMonth } from "../../shared/stats/ratings";

// The report page's charts: reviews and average rating per month, and how many reviews gave each
// star, under the report's own filters (dates, only published, categories). The service documents
// no time series: a month's numbers are the product report asked for that month's days (its
// per-product counts and averages pooled), the stars are List reviews' `total` for each `rating`.
// Without dates, the months are the twelve ending with the newest review's.

export const TREND_MONTHS = 12;
const REPORT_PAGE = 100;
/** Products with reviews read per month at most (100 a page). */
const REPORT_PAGES_PER_MONTH = 10;
/** Calls to the service at once. */
const CONCURRENCY = 4;

export interface ReviewTrends {
  from: string;
  to: string;
  months: TrendMonth[];
  /** `stars[i]`: reviews of `i + 1` stars in the whole window. */
  stars: number[];
  average: number | null;
  /** A month had more products with reviews than were read: its numbers are of the most reviewed. */
  capped: boolean;
}

async function inTurn<T, R>(items: T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

const categoriesOf = (q: ProductReportQuery) =>
  q.category === undefined ? [] : Array.isArray(q.category) ? q.category : [q.category];

/** List reviews under the report's filters (categories need the POST form of the list). */
function listUnder(client: ReviewsClient, q: ProductReportQuery, list: ReviewsListQuery) {
  const query: ReviewsListQuery = { ...list, ...(q.onlyPublished ? { status: "published" as const } : {}) };
  const categories = categoriesOf(q);
  return categories.length ? client.admin.searchReviews(query, { categories }) : client.admin.listReviews(query);
}

async function monthOfReport(client: ReviewsClient, q: ProductReportQuery, days: { from: string; to: string }) {
  const rows: { reviewCount: number; aggregateRating: number | null }[] = [];
  let capped = false;
  for (let skip = 0, page = 0; ; page++) {
    if (page === REPORT_PAGES_PER_MONTH) {
      capped = true;
      break;
    }
    const report = await client.admin.getProductReport({
      ...q,
      order: "MoreReviews",
      dateFrom: days.from,
      dateTo: days.to,
      limit: REPORT_PAGE,
      skip,
    });
    rows.push(...report.result.map((r) => r.reviews));
    skip += report.result.length;
    // Most reviews first (documented): once a product has none, neither have the rest.
    if (!report.result.length || skip >= report.total || report.result.some((r) => r.reviews.reviewCount === 0)) break;
  }
  return { ...pooled(rows), capped };
}

/** The charts' numbers, or null when there is no review to draw. */
export async function reviewTrends(client: ReviewsClient, query: ProductReportQuery): Promise<ReviewTrends | null> {
  const { skip: _skip, limit: _limit, order: _order, sku: _sku, ...q } = query;
  let months: MonthKey[];
  let window: { from: string; to: string };
  if (q.dateFrom && q.dateTo) {
    months = monthsBetween(q.dateFrom, q.dateTo, TREND_MONTHS);
    if (!months.length) return null;
    window = { from: q.dateFrom > `${months[0]}-01` ? q.dateFrom : `${months[0]}-01`, to: q.dateTo };
  } else {
    const newest = monthOf((await listUnder(client, q, { order: "created,-1" })).results[0]?.created);
    if (!newest) return null;
    months = monthsEnding(newest, TREND_MONTHS);
    window = { from: `${months[0]}-01`, to: daysOf(months.at(-1)!).to };
  }
  const { dateFrom: _from, dateTo: _to, ...base } = q;
  const [perMonth, stars] = await Promise.all([
    inTurn(months, (m) => monthOfReport(client, base, daysOf(m, window))),
    inTurn(
      [1, 2, 3, 4, 5],
      async (rating) => (await listUnder(client, q, { rating, from: window.from, to: window.to })).total,
    ),
  ]);
  return {
    ...window,
    months: months.map((month, i) => ({ month, reviews: perMonth[i]!.reviews, average: perMonth[i]!.average })),
    stars,
    average: starsAverage(stars),
    capped: perMonth.some((m) => m.capped),
  };
}
