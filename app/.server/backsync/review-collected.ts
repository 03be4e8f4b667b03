import type { AdminReview, ReviewsAdminApi } from "../reviews";
import { triggerPayload, type TriggerCall } from "./flow-triggers";

// The "review collected" Flow trigger's read: the Admin API's review list by submission date
// (`created`, a documented sort key and a documented field of the admin review), newest first, read
// from the top down to the last submission handled. Any status: a review the filter caught or that
// waits for moderation was still collected.
//
// It costs a call per poll, so it runs only for shops whose workflows use the trigger (Flow's
// lifecycle callback, flow-trigger-use.repository.ts), and only from the later of: the last
// submission handled, the moment the trigger was turned on, the shop's connection. A shop that
// turns a workflow on gets what is collected from then, never its history.
//
// Reviews submitted in the same millisecond as the cursor are read again on the next poll: the
// once-per-review claim (FlowTriggerSent) makes that a no-op, and missing one would not be.

export const REVIEW_COLLECTED = "review-collected";
export const COLLECTED_ORDER = "created,-1";
/** Pages per poll: far above what a poll interval collects, so only a flood reaches it. */
export const COLLECTED_MAX_PAGES = 20;

export interface CollectedRead {
  /** Reviews submitted at or after `since`, newest first, each once. */
  reviews: AdminReview[];
  /** The newest submission date read (ISO), or `since` when there was none. */
  cursor: string;
  pages: number;
  /** The bound stopped the read before it reached `since` (older reviews of the burst were not read). */
  truncated: boolean;
}

const createdMs = (r: AdminReview): number | null => {
  const ms = r.created ? Date.parse(r.created) : NaN;
  return Number.isNaN(ms) ? null : ms;
};

/** Pure: where this poll's read starts (ISO), the latest of the three starting points. */
export function collectedSince(at: { cursor: string | null; turnedOnAt: Date; connectedAt: Date | null }): string {
  const candidates = [at.turnedOnAt.getTime(), at.connectedAt?.getTime() ?? 0];
  const cursorMs = at.cursor ? Date.parse(at.cursor) : NaN;
  if (!Number.isNaN(cursorMs)) candidates.push(cursorMs);
  return new Date(Math.max(...candidates)).toISOString();
}

export async function readCollectedSince(
  admin: Pick<ReviewsAdminApi, "listReviews">,
  since: string,
  opts: { signal?: AbortSignal; maxPages?: number } = {},
): Promise<CollectedRead> {
  const sinceMs = Date.parse(since);
  const maxPages = opts.maxPages ?? COLLECTED_MAX_PAGES;
  const ids = new Set<string>();
  const reviews: AdminReview[] = [];
  let newest = sinceMs;
  let pages = 0;
  let skip = 0;
  for (;;) {
    const p = await admin.listReviews({ order: COLLECTED_ORDER, ...(skip ? { skip } : {}) }, { signal: opts.signal });
    pages++;
    let reachedSince = false;
    for (const r of p.results) {
      const ms = createdMs(r);
      // A review without a readable date cannot be placed against the cursor: it is left out
      // rather than sent on every poll.
      if (ms === null) continue;
      if (ms < sinceMs) {
        reachedSince = true;
        break;
      }
      if (ids.has(r._id)) continue;
      ids.add(r._id);
      reviews.push(r);
      newest = Math.max(newest, ms);
    }
    const n = p.results.length;
    if (reachedSince || n === 0 || skip + n >= p.total) break;
    if (pages >= maxPages) {
      // The list is newest first, so a read that resumed from the old cursor would read the same
      // top pages again for as long as the burst lasts: the cursor moves on, the older part of the
      // burst sends no trigger, and the caller logs it.
      return { reviews, cursor: new Date(newest).toISOString(), pages, truncated: true };
    }
    skip += n;
  }
  return { reviews, cursor: new Date(newest).toISOString(), pages, truncated: false };
}

/** Pure: one "review collected" trigger per review, oldest submission first. */
export function collectedTriggers(reviews: readonly AdminReview[]): TriggerCall[] {
  return [...reviews]
    .sort((a, b) => (createdMs(a) ?? 0) - (createdMs(b) ?? 0))
    .map((r) => ({ handle: REVIEW_COLLECTED, reviewId: r._id, payload: triggerPayload(r) }));
}
