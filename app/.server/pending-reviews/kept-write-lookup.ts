import type { AdminQuestion, AdminReview, QuestionBody, ReviewSubmission, ReviewsAdminApi } from "../reviews";

// Is a kept review (or question) already at the service? Asked before sending it again after a try
// whose answer never came. Neither submission endpoint has an idempotency key, so the answer is a
// search of the Admin API's list of that product, newest first, for the same writer, rating and
// text created no earlier than the kept write (less a margin for the two clocks).
//
// The list's page size is "not shown": pages are read with `skip` advanced by what each page held,
// until an entry is older than the kept write, the list ends (`total`, an empty page) or a bound.
// A page never has to be full. Entries created while we read shift the rest down, so a page may
// repeat one (harmless) and never skips one. Stopping on the first older entry relies on the
// newest-first order we ask for: for reviews `created,-1` is documented; for questions the allowed
// orders are "not shown", so when the entries come out of order the search reads to the end.

/** How much earlier than the kept write the service may have stamped it (clock skew, a slow try). */
export const CLOCK_MARGIN_MS = 60_000;
/** Pages read at most (a product with tens of thousands of entries in its recent history). */
export const MAX_LOOKUP_PAGES = 500;

export interface ListPage<T> {
  results: T[];
  total: number;
}

/** Pure paging: the first entry that matches, reading newest-first pages until one is older than `notBeforeMs`. */
export async function findInNewestFirst<T>(
  readPage: (skip: number) => Promise<ListPage<T>>,
  createdMs: (entry: T) => number | null,
  matches: (entry: T) => boolean,
  notBeforeMs: number,
  maxPages = MAX_LOOKUP_PAGES,
): Promise<{ found: T | null; pages: number; exhausted: boolean }> {
  let skip = 0;
  let pages = 0;
  let previous = Infinity;
  let ordered = true;
  for (;;) {
    const page = await readPage(skip);
    pages++;
    let passed = false;
    for (const entry of page.results) {
      if (matches(entry)) return { found: entry, pages, exhausted: false };
      const at = createdMs(entry);
      if (at === null) continue;
      if (at > previous) ordered = false;
      previous = at;
      if (at < notBeforeMs) passed = true;
    }
    const n = page.results.length;
    if ((passed && ordered) || n === 0 || skip + n >= page.total) return { found: null, pages, exhausted: false };
    if (pages >= maxPages) return { found: null, pages, exhausted: true };
    skip += n;
  }
}

const createdOf = (e: { created?: string | null }): number | null => {
  const ms = typeof e.created === "string" ? Date.parse(e.created) : NaN;
  return Number.isNaN(ms) ? null : ms;
};

export type LookupAdmin = Pick<ReviewsAdminApi, "listReviews" | "listQuestions">;

export interface LookupResult {
  id: string | null;
  pages: number;
  /** The bound was reached before the kept write's time: not found, but not proven absent either. */
  exhausted: boolean;
}

export async function findStoredReview(
  admin: Pick<ReviewsAdminApi, "listReviews">,
  sku: string,
  s: ReviewSubmission,
  keptAt: Date,
  opts: { signal?: AbortSignal } = {},
): Promise<LookupResult> {
  const notBefore = keptAt.getTime() - CLOCK_MARGIN_MS;
  // `from` (a documented day filter) keeps the list to the days around the kept write.
  const from = new Date(notBefore - 86_400_000).toISOString().slice(0, 10);
  const same = (r: AdminReview) =>
    r.rating === s.rating &&
    (r.text ?? "") === (s.text ?? "") &&
    (s.userId ? r.userId === s.userId : true) &&
    // `orderId` comes with includeOrderData; a service that leaves it out is not held against us.
    (s.orderId ? r.orderId == null || r.orderId === s.orderId : true) &&
    (createdOf(r) ?? -Infinity) >= notBefore;
  const read = (skip: number) =>
    admin.listReviews(
      { sku, order: "created,-1", from, includeOrderData: true, ...(skip ? { skip } : {}) },
      { signal: opts.signal },
    );
  const r = await findInNewestFirst(read, createdOf, same, notBefore);
  return { id: r.found?._id ?? null, pages: r.pages, exhausted: r.exhausted };
}

export async function findStoredQuestion(
  admin: Pick<ReviewsAdminApi, "listQuestions">,
  sku: string,
  q: QuestionBody,
  keptAt: Date,
  opts: { signal?: AbortSignal } = {},
): Promise<LookupResult> {
  const notBefore = keptAt.getTime() - CLOCK_MARGIN_MS;
  const same = (x: AdminQuestion) =>
    x.text === q.text &&
    // `email` is documented on the admin question; compared only when the service sends it.
    (typeof x.email !== "string" || x.email.toLowerCase() === q.email.toLowerCase()) &&
    (createdOf(x) ?? -Infinity) >= notBefore;
  // Every status: a question the service took may already sit in moderation (or be filtered).
  const read = (skip: number) =>
    admin.listQuestions(
      { sku, status: "all", order: "created,-1", ...(skip ? { skip } : {}) },
      { signal: opts.signal },
    );
  const r = await findInNewestFirst(read, createdOf, same, notBefore);
  return { id: r.found?._id ?? null, pages: r.pages, exhausted: r.exhausted };
}
