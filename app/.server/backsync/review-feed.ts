import type { AdminReview, ReviewsAdminApi } from "../reviews";

// The review-change feed: the Admin API's review list ordered by `moderatedAt`, newest first, read
// down to the shop's cursor (the newest `moderatedAt` handled last time). Approving or rejecting a
// review sets `moderatedAt`, so every moderation shows up here; reviews never moderated (pending)
// have none and sort last.
//
// The listing's page size is not documented: pages are read with `skip` advanced by what each page
// held (any size works), and the end is `total`, an empty page, or a review older than the cursor.
// A moderation during the read sets that review's `moderatedAt` to now: it moves to the top and
// the rest shift down by one, so the next page repeats a review (dropped by id) and never skips
// one; the moved review is newer than this read's cursor and comes with the next read. Reviews at
// exactly the cursor's time are read again: handling them twice is harmless (metafield digests and
// claimed Flow triggers make it a no-op).
//
// First run (no cursor): the history is not replayed (the full reconciliation covers what exists,
// and Flow triggers are for new events); the cursor starts at the newest moderation, or at the
// epoch when the account has none yet.

export const FEED_ORDER = "moderatedAt,-1";
const MAX_PAGES = 10_000;
export const EPOCH_CURSOR = new Date(0).toISOString();

export interface FeedRead {
  /** Reviews moderated at or after the cursor, newest first, each once. */
  changes: AdminReview[];
  /** The cursor to store once the changes are handled. */
  cursor: string;
  pages: number;
}

export const moderatedAtOf = (r: AdminReview): string | null => {
  const v = (r as { moderatedAt?: unknown }).moderatedAt;
  return typeof v === "string" && v ? v : null;
};

export async function readReviewChanges(admin: Pick<ReviewsAdminApi, "listReviews">, since: string | null, opts: { signal?: AbortSignal } = {}): Promise<FeedRead> {
  if (since === null) {
    const first = await admin.listReviews({ order: FEED_ORDER }, { signal: opts.signal });
    const newest = first.results.map(moderatedAtOf).find((m): m is string => m !== null);
    return { changes: [], cursor: newest ?? EPOCH_CURSOR, pages: 1 };
  }
  const sinceMs = Date.parse(since);
  const seen = new Set<string>();
  const changes: AdminReview[] = [];
  let newest = since;
  let skip = 0;
  let pages = 0;
  for (;;) {
    const page = await admin.listReviews({ order: FEED_ORDER, ...(skip ? { skip } : {}) }, { signal: opts.signal });
    pages++;
    let reachedCursor = false;
    for (const r of page.results) {
      const at = moderatedAtOf(r);
      if (at === null || Date.parse(at) < sinceMs) {
        reachedCursor = true;
        break;
      }
      if (Date.parse(at) > Date.parse(newest)) newest = at;
      if (seen.has(r._id)) continue;
      seen.add(r._id);
      changes.push(r);
    }
    const n = page.results.length;
    if (reachedCursor || n === 0 || skip + n >= page.total || pages >= MAX_PAGES) break;
    skip += n;
  }
  return { changes, cursor: newest, pages };
}

/** The products the changes touch (catalog SKUs = Shopify product ids), each once. */
export function changedProducts(changes: readonly AdminReview[]): string[] {
  return [...new Set(changes.map((r) => r.sku))];
}
