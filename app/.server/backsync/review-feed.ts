import type { AdminReview, ReviewsAdminApi } from "../reviews";

// The review-change feed: the Admin API's review list ordered by `moderatedAt` descending (a
// documented sort key), read from the top until what it shows is already known.
//
// The review the list returns has no documented `moderatedAt` (the spec names it as a sort key
// only), so changes are recognised by what is documented: each review's id and status. The feed
// remembers the (id, status) pairs at the top of the list from its last read ("seen", at most
// SEEN_MAX per shop). A moderation moves its review to the top with a status the memory does not
// hold for it: a change. The read stops after KNOWN_RUN known reviews in a row (the top of the
// previous read), at the end of the list, or at a bound. Reviews moderated again with the same
// status also move up while looking known: the run of KNOWN_RUN lets that many of them sit above a
// real change without hiding it. Pending reviews (never moderated) change nothing on the
// storefront and are neither changes nor part of a known run, wherever the service sorts them.
//
// When the service does send a `moderatedAt`, it is a shortcut, never the only signal: a review
// moderated after the stored cursor is a change even when it looks known, and one moderated before
// it ends the read at once.
//
// The listing's page size is not documented: pages are read with `skip` advanced by what each page
// held. A moderation during the read moves a review to the top and shifts the rest down by one, so
// a page may repeat a review (dropped by id) and never skips one; the moved review is caught by the
// next read, its status being new to the memory. Handling a change twice is harmless (metafield
// digests and claimed Flow triggers make it a no-op).
//
// First read (no memory): the history is not replayed (the full reconciliation covers what exists,
// and Flow triggers are for new events); the memory starts from the top FIRST_READ reviews.

export const FEED_ORDER = "moderatedAt,-1";
/** Known reviews in a row that end a read. */
export const KNOWN_RUN = 10;
/** Reviews the first read remembers (more than KNOWN_RUN, so the next read finds its known run). */
export const FIRST_READ = 50;
/** (id, status) pairs remembered per shop, newest moderation first. */
export const SEEN_MAX = 100;
const MAX_PAGES = 10_000;

export interface FeedMemory {
  /** The newest `moderatedAt` the service sent (ISO), when it sends one. */
  cursor: string | null;
  /** `id:status` of the reviews at the top of the list at the last read, top first. */
  seen: string[];
}

export interface FeedRead {
  /** Reviews moderated since the last read, in list order, each once. */
  changes: AdminReview[];
  /** What to remember once the changes are handled. */
  memory: FeedMemory;
  pages: number;
}

export const seenKey = (r: Pick<AdminReview, "_id" | "status">): string => `${r._id}:${r.status}`;

/** The undocumented timestamp, when this service sends it. */
export const moderatedAtOf = (r: AdminReview): string | null => {
  const v = (r as { moderatedAt?: unknown }).moderatedAt;
  return typeof v === "string" && v && !Number.isNaN(Date.parse(v)) ? v : null;
};

const neverModerated = (r: AdminReview) => r.status === "pending";

const later = (a: string | null, b: string | null): string | null =>
  a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a;

/** The memory after a read: what this read saw on top, then what is still true of the last one. */
export function nextMemory(read: readonly AdminReview[], before: FeedMemory | null, cursor: string | null): FeedMemory {
  const ids = new Set<string>();
  const seen: string[] = [];
  for (const r of read) {
    if (ids.has(r._id) || neverModerated(r)) continue;
    ids.add(r._id);
    seen.push(seenKey(r));
  }
  for (const key of before?.seen ?? []) {
    if (seen.length >= SEEN_MAX) break;
    const id = key.slice(0, key.lastIndexOf(":"));
    if (!ids.has(id)) {
      ids.add(id);
      seen.push(key);
    }
  }
  return { cursor, seen: seen.slice(0, SEEN_MAX) };
}

export async function readReviewChanges(
  admin: Pick<ReviewsAdminApi, "listReviews">,
  before: FeedMemory | null,
  opts: { signal?: AbortSignal } = {},
): Promise<FeedRead> {
  const page = (skip: number) =>
    // With the order fields (documented): Shop app syndication ties each review to its order.
    admin.listReviews(
      { order: FEED_ORDER, includeOrderData: true, ...(skip ? { skip } : {}) },
      { signal: opts.signal },
    );

  if (before === null) {
    const read: AdminReview[] = [];
    let pages = 0;
    for (let skip = 0; read.length < FIRST_READ && pages < MAX_PAGES;) {
      const p = await page(skip);
      pages++;
      read.push(...p.results);
      skip += p.results.length;
      if (p.results.length === 0 || skip >= p.total) break;
    }
    const cursor = read.map(moderatedAtOf).reduce(later, null);
    return { changes: [], memory: nextMemory(read, null, cursor), pages };
  }

  const known = new Set(before.seen);
  const sinceMs = before.cursor ? Date.parse(before.cursor) : null;
  const ids = new Set<string>();
  const read: AdminReview[] = [];
  const changes: AdminReview[] = [];
  let cursor = before.cursor;
  let run = 0;
  let skip = 0;
  let pages = 0;
  for (let done = false; !done;) {
    const p = await page(skip);
    pages++;
    for (const r of p.results) {
      const at = moderatedAtOf(r);
      if (at !== null && sinceMs !== null && Date.parse(at) < sinceMs) {
        done = true;
        break;
      }
      if (ids.has(r._id)) continue;
      ids.add(r._id);
      read.push(r);
      if (neverModerated(r)) continue;
      cursor = later(cursor, at);
      const newer = at !== null && sinceMs !== null && Date.parse(at) > sinceMs;
      if (newer || !known.has(seenKey(r))) {
        changes.push(r);
        run = 0;
      } else if (++run >= KNOWN_RUN) {
        done = true;
        break;
      }
    }
    const n = p.results.length;
    if (n === 0 || skip + n >= p.total || pages >= MAX_PAGES) break;
    skip += n;
  }
  return { changes, memory: nextMemory(read, before, cursor), pages };
}

/** The products the changes touch (catalog SKUs = Shopify product ids), each once. */
export function changedProducts(changes: readonly AdminReview[]): string[] {
  return [...new Set(changes.map((r) => r.sku))];
}

/**
 * SKUs of reviews the service lists with `product: null`: the review's product is not in its
 * catalog (a documented field of the admin review, sent empty). An absent field says nothing.
 */
export function unknownProducts(changes: readonly AdminReview[]): string[] {
  return [...new Set(changes.filter((r) => r.product === null).map((r) => r.sku))];
}
