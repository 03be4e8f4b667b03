// Shopify's `money` filter: an amount in the currency's smallest unit (cents) through the shop's
// money format (`shop.money_format`, `Shop.currencyFormats.moneyFormat` in the Admin API), e.g.
// "${{amount}}" → $1,134.65, "R$ {{amount_with_comma_separator}}" → R$ 1.134,65. The placeholders
// are Shopify's documented ones; the format is the merchant's text (an HTML-escaped format is
// kept as the merchant wrote it, as Shopify does).

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/;

function group(cents: number, decimals: number, thousands: string, point: string): string {
  const fixed = (Math.abs(cents) / 100).toFixed(decimals);
  const [whole, fraction] = fixed.split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return (cents < 0 ? "-" : "") + (fraction ? `${grouped}${point}${fraction}` : grouped);
}

const STYLES: Record<string, (cents: number) => string> = {
  amount: (c) => group(c, 2, ",", "."),
  amount_no_decimals: (c) => group(c, 0, ",", "."),
  amount_with_comma_separator: (c) => group(c, 2, ".", ","),
  amount_no_decimals_with_comma_separator: (c) => group(c, 0, ".", ","),
  amount_with_apostrophe_separator: (c) => group(c, 2, "'", "."),
  amount_no_decimals_with_space_separator: (c) => group(c, 0, " ", "."),
  amount_with_space_separator: (c) => group(c, 2, " ", ","),
  amount_with_period_and_space_separator: (c) => group(c, 2, " ", "."),
};

/** Shopify's default when a shop has no format (a USD shop's). */
export const DEFAULT_MONEY_FORMAT = "${{amount}}";

/** `cents` through `format`; a format without a known placeholder prints the plain amount after it. */
export function formatMoney(cents: number, format: string | null | undefined = DEFAULT_MONEY_FORMAT): string {
  const value = Number.isFinite(cents) ? Math.round(cents) : 0;
  const f = format || DEFAULT_MONEY_FORMAT;
  const m = PLACEHOLDER.exec(f);
  const style = m ? STYLES[m[1]!] : undefined;
  return style ? f.replace(PLACEHOLDER, () => style(value)) : `${f}${STYLES.amount!(value)}`;
}
