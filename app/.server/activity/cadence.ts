// How often a shop's back-sync polls the service. A poll costs the service calls whether or not
// anything changed, and most installed shops change rarely: a shop with ten orders a month gets one
// or two reviews a month. So each shop's period follows its own observed rate of changes at the
// service (reviews arriving, moderations), not the orders it sells:
// - a shop that changed in the last ten minutes, or that the app saw act (a shopper's review or
//   question, a moderation or a group change in the admin), is polled every active period;
// - a shop whose observed rate is about a change an hour or more is polled every active period too:
//   its next moderation at the service reaches the storefront within a minute (docs/operations.md);
// - any other shop is quiet: polled every quiet period (never above an hour). The default, 14 min
//   50 s, is about four polls an hour (4.04), and with the tick's 5 s and a run it keeps the promise
//   that a moderation at the service reaches a quiet shop's storefront within 15 minutes; the two
//   asks cannot both hold to the second, and the promise is what a merchant sees.
// A delivered order is only a small bump of the rate (about one buyer in ten reviews). Pure: the
// Redis side is poll-schedule.ts.

export interface Cadence {
  /** The poll period of an active shop (BACKSYNC_INTERVAL_MS). */
  activeMs: number;
  /** The poll period of a quiet shop (BACKSYNC_QUIET_MS, between the active period and an hour). */
  quietMs: number;
}

export const HOUR_MS = 3_600_000;

/** No change for this long and the shop is quiet. */
export const QUIET_AFTER_MS = 600_000;

/**
 * A shop with at least this many changes an hour stays at the active pace. Half the promised "a
 * review an hour": a shop at that rate keeps its estimate above this with room for chance (three
 * standard deviations of a steady Poisson rate at this half-life).
 */
export const BUSY_CHANGES_PER_HOUR = 0.5;

/** How fast old changes stop counting: half of their weight every half-life. */
export const RATE_HALF_LIFE_MS = 12 * HOUR_MS;

/** What a delivered order adds to the rate: the share of buyers who review after the service asks. */
export const ORDER_REVIEW_CHANCE = 0.1;

/** The shop's changes, each weighing less with age: `count` as it stood at `at`. */
export interface ChangeCount {
  count: number;
  at: number;
}

/** The count as it stands at `now` (an `at` after `now`, from another process's clock, decays nothing). */
export function decayedCount(c: ChangeCount | null, now: number): number {
  if (!c) return 0;
  return c.count * 2 ** (-Math.max(0, now - c.at) / RATE_HALF_LIFE_MS);
}

/** The count after `added` changes at `now`. */
export function withChanges(c: ChangeCount | null, added: number, now: number): ChangeCount {
  return { count: decayedCount(c, now) + added, at: Math.max(now, c?.at ?? now) };
}

/**
 * Changes an hour: a steady rate λ keeps the decayed count at λ·half-life/ln 2, so the count
 * times ln 2 over the half-life (in hours) gives λ back.
 */
export function changesPerHour(count: number): number {
  return (count * Math.LN2) / (RATE_HALF_LIFE_MS / HOUR_MS);
}

/** The decayed count a shop that has had `perHour` changes an hour for a long time carries. */
export function steadyCount(perHour: number): number {
  return (perHour * (RATE_HALF_LIFE_MS / HOUR_MS)) / Math.LN2;
}

/** The delay before the shop's next poll. */
export function nextPollDelay(
  cadence: Cadence,
  shop: { changed: boolean; activeUntil: number | null; count: number },
  now: number,
): number {
  const active =
    shop.changed ||
    (shop.activeUntil !== null && shop.activeUntil > now) ||
    changesPerHour(shop.count) >= BUSY_CHANGES_PER_HOUR;
  return active ? cadence.activeMs : Math.max(cadence.quietMs, cadence.activeMs);
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
