import type { Locale } from "../shared/i18n/locale";

// A rating average as a merchant reads it: one decimal, in the admin's language ("4.3", "4,3"),
// and a dash where the service has none (no published review yet).

/** Formats averages for one locale. Pure. */
export function averageFormatter(locale: Locale): (value: number | null) => string {
  const format = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (value) => (value === null || !Number.isFinite(value) ? "–" : format.format(value));
}
