// Dates of the order body.
//
// The spec shows `YYYY-MM-DD HH:mm` as a *sample* for createdDate but answers with ISO 8601 UTC
// date-times, so date-times are sent as ISO 8601 UTC with milliseconds (`2026-11-20T10:15:00.000Z`):
// unambiguous, and what the service stores anyway. Date fields (deliveredDate,
// estimatedDeliveryDate) are `YYYY-MM-DD`, taken as the calendar day in the offset the timestamp was
// written with. Shopify REST payloads write timestamps in the shop's time zone, so a parcel delivered
// at 21:00 in New York is delivered "that day" and not on the next UTC day. GraphQL timestamps are
// UTC, so dates derived from them are UTC days.

export const DAY_MS = 86_400_000;

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

interface ParsedTime {
  ms: number;
  offsetMinutes: number;
}

function parse(raw: string | null | undefined): ParsedTime | undefined {
  if (typeof raw !== "string") return undefined;
  const s = raw.trim();
  const m = ISO_RE.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", sec = "00", frac = "", off] = m;
  let offsetMinutes = 0;
  if (off && off.toUpperCase() !== "Z") {
    const sign = off[0] === "-" ? -1 : 1;
    const digits = off.slice(1).replace(":", "");
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || "0"));
  }
  // A timestamp without offset is read as UTC, never as the machine's local time.
  const local = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(sec),
    Number(frac.padEnd(3, "0").slice(0, 3)),
  );
  const ms = local - offsetMinutes * 60_000;
  // Reject calendar overflow ("2026-02-31") instead of silently rolling it into March.
  const check = new Date(local);
  if (
    !Number.isFinite(ms) ||
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(sec) > 59
  ) {
    return undefined;
  }
  return { ms, offsetMinutes };
}

/** The instant of a timestamp, or undefined when it is absent or not an ISO 8601 timestamp. */
export function parseTime(raw: string | null | undefined): Date | undefined {
  const p = parse(raw);
  return p ? new Date(p.ms) : undefined;
}

/** ISO 8601 UTC form of a timestamp (`2026-11-20T15:15:00.000Z`), or undefined. */
export function toIsoUtc(raw: string | null | undefined): string | undefined {
  const p = parse(raw);
  return p && isRepresentable(p.ms) ? new Date(p.ms).toISOString() : undefined;
}

/** `YYYY-MM-DD` of the timestamp in its own offset, `addDays` later; undefined when unparseable. */
export function localDate(raw: string | null | undefined, addDays = 0): string | undefined {
  const p = parse(raw);
  if (!p) return undefined;
  const shifted = p.ms + addDays * DAY_MS + p.offsetMinutes * 60_000;
  return isRepresentable(shifted) ? new Date(shifted).toISOString().slice(0, 10) : undefined;
}

// Years 0000-9999 only: what `YYYY-MM-DD` and the 4-digit ISO form can carry.
function isRepresentable(ms: number): boolean {
  return ms >= -62_167_219_200_000 && ms < 253_402_300_800_000;
}
