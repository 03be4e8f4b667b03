// Calendar months in UTC as "YYYY-MM" keys: the buckets of the admin's charts. UTC because the
// service's `from`/`to` days are UTC days, and the server and the browser must draw the same months.

export type MonthKey = string;

const pad = (n: number) => String(n).padStart(2, "0");

/** The month a date falls in, or null for a date that cannot be read. */
export function monthOf(date: string | Date | null | undefined): MonthKey | null {
  if (!date) return null;
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) return null;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

const parts = (key: MonthKey) => {
  const [y, m] = key.split("-").map(Number);
  return { y: y!, m: m! };
};

/** `count` months ending with `last`, oldest first. */
export function monthsEnding(last: MonthKey, count: number): MonthKey[] {
  const { y, m } = parts(last);
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (count - 1 - i), 1));
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
  });
}

/** Months from the one of `from` to the one of `to` (both `YYYY-MM-DD`), at most the last `max`. */
export function monthsBetween(from: string, to: string, max: number): MonthKey[] {
  const first = from.slice(0, 7);
  const last = to.slice(0, 7);
  if (first > last) return [];
  const { y: y1, m: m1 } = parts(first);
  const { y: y2, m: m2 } = parts(last);
  const span = (y2 - y1) * 12 + (m2 - m1) + 1;
  return monthsEnding(last, Math.min(span, max));
}

/** The first and last day of a month (`YYYY-MM-DD`), narrowed to a range when one is given. */
export function daysOf(key: MonthKey, within?: { from: string; to: string }): { from: string; to: string } {
  const { y, m } = parts(key);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const from = `${key}-01`;
  const to = `${key}-${pad(last)}`;
  if (!within) return { from, to };
  return { from: within.from > from ? within.from : from, to: within.to < to ? within.to : to };
}

/** A month's name for a person: its short name for an axis ("Mar"), month and year for a table. */
export function monthLabel(key: MonthKey, locale: string, style: "short" | "long"): string {
  const { y, m } = parts(key);
  const format = new Intl.DateTimeFormat(
    locale,
    style === "short" ? { month: "short", timeZone: "UTC" } : { month: "long", year: "numeric", timeZone: "UTC" },
  );
  return format.format(new Date(Date.UTC(y, m - 1, 15)));
}

export const yearOf = (key: MonthKey) => Number(key.slice(0, 4));
