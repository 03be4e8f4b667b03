// The one order of a product's or an order's changes, used wherever an older change is dropped for
// a newer one (catalog staging and sending, a full sync against live changes, the order state).
//
// Shopify documents no delivery order, delivers at least once, and retries a failed delivery with
// its original payload hours later; bulk editors change one product several times within a second.
// Whole seconds compared, with the later arrival winning a tie, let a redelivered older edit
// replace a newer one. So a change is ordered by:
// 1. the payload's `updated_at` as an instant, to every digit it carries (Shopify's timestamps have
//    a UTC offset and sometimes fractional seconds: "2026-11-18T11:05:00.123-05:00");
// 2. then the delivery's X-Shopify-Triggered-At (when Shopify raised the event), or for a read of
//    the current product or order (GraphQL, bulk), when the read began: a read returns the newest
//    state of its updated_at, so an event raised before it is not newer, one raised after it is;
// 3. then its X-Shopify-Event-Id, so that two different events never compare equal and every
//    worker, in whatever order deliveries reach it, keeps the same one.
// A redelivery of one event is equal to itself: applying it again changes nothing.
//
// A version is a string whose plain string order is that order (fixed-width fields), so Redis
// scripts and database rows compare it without knowing its parts.

/** What is known of one change: the payload's updated_at and, for a webhook, its delivery headers. */
export interface ChangeStamp {
  updatedAt?: string | null;
  triggeredAt?: string | null;
  eventId?: string | null;
}

/** An instant as 12 digits of seconds since 1970 and 9 of nanoseconds. */
const INSTANT_DIGITS = 21;
const NO_INSTANT = "0".repeat(INSTANT_DIGITS);
const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The instant of an ISO 8601 time as a fixed-width key (null when it is none). Fractions finer
 * than JavaScript's milliseconds are kept; a time without an offset is read as UTC.
 */
export function instantKey(text: string | null | undefined): string | null {
  if (!text) return null;
  const m = ISO.exec(text.trim());
  if (!m) {
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? instantKeyOfMs(ms) : null;
  }
  const [, y, mo, d, h, mi, s, fraction = "", zone = "Z"] = m;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const seconds = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) / 1000 - offsetMinutes * 60;
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  return String(seconds).padStart(12, "0") + fraction.slice(0, 9).padEnd(9, "0");
}

/** The key of an instant given in epoch milliseconds. */
export function instantKeyOfMs(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < 0) return null;
  const whole = Math.floor(ms);
  return String(Math.floor(whole / 1000)).padStart(12, "0") + String(whole % 1000).padStart(3, "0") + "000000";
}

/** Numeric ids compare as numbers (padded), others after them as text; none before both. */
function eventKey(id: string | null | undefined): string {
  if (!id) return "";
  return /^\d{1,30}$/.test(id) ? `n${id.padStart(30, "0")}` : `s${id}`;
}

/**
 * The version of a change, or undefined when it has no usable updated_at: such a change is never
 * taken for an old one (it is sent), and it never makes another one old.
 */
export function changeVersion(stamp: ChangeStamp): string | undefined {
  const updated = instantKey(stamp.updatedAt);
  if (!updated) return undefined;
  return `${updated}:${instantKey(stamp.triggeredAt) ?? NO_INSTANT}:${eventKey(stamp.eventId)}`;
}

/**
 * The version of a change known only by its updated_at in epoch milliseconds (rows and Redis values
 * written before versions were kept): before every delivery of that same instant.
 */
export function legacyVersion(ms: number | null | undefined): string | undefined {
  const updated = ms == null ? null : instantKeyOfMs(ms);
  return updated ? `${updated}:${NO_INSTANT}:` : undefined;
}

/** Total order of two versions: negative when `a` is older, 0 when they are the same change. */
export function compareVersions(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether a change is older than any version already known for its product or order (staged,
 * accepted, applied): the stale-drop rule. An unversioned change is never older.
 */
export function isOlderThan(version: string | undefined, ...known: (string | null | undefined)[]): boolean {
  if (version === undefined) return false;
  return known.some((k) => k != null && compareVersions(version, k) < 0);
}

/** The epoch milliseconds of a version's updated_at (for the DateTime columns kept beside it). */
export function versionUpdatedAtMs(version: string): number {
  return Number(version.slice(0, 12)) * 1000 + Number(version.slice(12, 15));
}

/** Where a change came from: a webhook delivery (its headers), or a read of the current state. */
export type ChangeSource = { triggeredAt?: string | null; eventId?: string | null } | { readAt: Date };

/** The source of a delivery, from what the ingress stored of its headers. */
export function deliverySource(d: { triggeredAt?: string | null; eventId?: string | null }): ChangeSource {
  return { triggeredAt: d.triggeredAt ?? null, eventId: d.eventId ?? null };
}

/**
 * The version of a change of `updatedAt` from `source`. A read (GraphQL, bulk) counts from when it
 * began, and its updatedAt in whole seconds: Shopify's GraphQL DateTime has no more, so a read of
 * the version a fractional payload carried never passes for a newer one.
 */
export function versionOf(updatedAt: string | null | undefined, source?: ChangeSource): string | undefined {
  if (!source || !("readAt" in source)) return changeVersion({ updatedAt, ...source });
  const key = instantKey(updatedAt);
  if (!key) return undefined;
  return `${key.slice(0, 12)}${"0".repeat(9)}:${instantKeyOfMs(source.readAt.getTime()) ?? NO_INSTANT}:`;
}
