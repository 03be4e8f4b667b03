// How often a shop's back-sync polls the service. Every poll of a quiet shop reads the review feed,
// the groups and the shop's figures (four calls): at one a minute for every installed shop, ten
// thousand mostly quiet shops would cost the service hundreds of calls a second for nothing. So the
// poll follows activity: every `activeMs` while something may change soon, doubling after each poll
// that found nothing up to `quietMs`, and back to `activeMs` as soon as a poll finds a change or
// the shop shows activity. Pure: the Redis side is poll-schedule.ts.

export interface Cadence {
  /** The poll period of an active shop (BACKSYNC_INTERVAL_MS). */
  activeMs: number;
  /** The longest a quiet shop waits between polls (BACKSYNC_QUIET_MS). */
  quietMs: number;
}

/** A merchant's action in the app (a moderation, a group, a setting), a shopper's review or question. */
export const ACTIVE_AFTER_ACTION_MS = 3_600_000;

/**
 * An order delivered: the service asks its buyer for a review after delivery and reminds them, so
 * reviews keep coming for weeks. Thirty days covers the request and its reminders at the service's
 * usual delays; the service's own schedule is not in its documented API (docs/reviews-service.md).
 */
export const REVIEW_WINDOW_MS = 30 * 86_400_000;

/** The delay before the shop's next poll, after one that did (or did not) find a change. */
export function nextPollDelay(
  cadence: Cadence,
  last: { delayMs: number | null; changed: boolean; activeUntil: number | null },
  now: number,
): number {
  if (last.changed || (last.activeUntil !== null && last.activeUntil > now)) return cadence.activeMs;
  const previous = Math.max(last.delayMs ?? cadence.activeMs, cadence.activeMs);
  return Math.max(Math.min(previous * 2, cadence.quietMs), cadence.activeMs);
}

/** A stable number in [0, 2^32) for a shop: spreads shops over a period without coordination. */
export function shopHash(shopId: string): number {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < shopId.length; i++) {
    h ^= shopId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The shop's first poll after it joins the schedule: somewhere in the next active period. */
export function firstPollAt(shopId: string, cadence: Cadence, now: number): number {
  return now + (shopHash(shopId) % cadence.activeMs);
}

/**
 * The shop's next reconciliation at or after `now`: each shop has its own moment in the period, so
 * a daily reconciliation of ten thousand shops is spread over the day rather than started at once.
 */
export function nextReconcileAt(shopId: string, periodMs: number, now: number): number {
  const slot = shopHash(shopId) % periodMs;
  const at = Math.floor(now / periodMs) * periodMs + slot;
  return at > now ? at : at + periodMs;
}
