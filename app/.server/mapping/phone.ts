// Phone numbers as buyers type them into checkout, turned into E.164 for the service's SMS and
// WhatsApp notifications. Pure and table-driven: no libphonenumber (several MB of metadata) for a
// field that only has to be good enough to reach a mobile. Rules, in order:
//
// 1. "tel:" prefixes, extensions ("ext 12", "x12", "#12") and the "(0)" of "+44 (0)20 ..." go.
//    Any other letter means it is not a phone number (vanity numbers, "n/a", "none"): dropped.
// 2. International forms: "+…", "00…", and "011…" when the country is in the NANP (+1).
//    The calling code is read with the table below; a trunk "0" typed after it ("+44 07911…") is
//    removed for countries that use one, and the old Mexican mobile "1" after +52 as well. A known
//    calling code with an impossible length is dropped; an unknown one is kept as "+digits".
// 3. National forms need the address country: the trunk prefix is stripped and the calling code
//    added when the remaining length fits the country. A number that already starts with the
//    country's calling code (the "+" forgotten) is recognised when the national reading fails.
// 4. Anything else with 7 to 15 digits is kept as bare digits (the service may still know the
//    store's country); fewer or more digits, or one digit repeated, is dropped.

export interface CallingCodeRule {
  /** Country calling code, digits only. */
  code: string;
  /** National trunk prefix stripped before adding the calling code. */
  trunk?: string;
  /** Length range of the national significant number (digits after the calling code). */
  nsn: readonly [min: number, max: number];
  /** Extra shape check of the national significant number. */
  pattern?: RegExp;
}

const NANP: Omit<CallingCodeRule, "code"> = { trunk: "1", nsn: [10, 10], pattern: /^[2-9]\d{2}[2-9]\d{6}$/ };

/** By ISO 3166-1 alpha-2 country code (the `country_code` of a Shopify address). */
export const CALLING_CODES: Readonly<Record<string, CallingCodeRule>> = {
  US: { code: "1", ...NANP },
  CA: { code: "1", ...NANP },
  GB: { code: "44", trunk: "0", nsn: [9, 10] },
  IE: { code: "353", trunk: "0", nsn: [7, 9] },
  DE: { code: "49", trunk: "0", nsn: [6, 13] },
  AT: { code: "43", trunk: "0", nsn: [6, 13] },
  CH: { code: "41", trunk: "0", nsn: [9, 9] },
  FR: { code: "33", trunk: "0", nsn: [9, 9] },
  BE: { code: "32", trunk: "0", nsn: [8, 9] },
  NL: { code: "31", trunk: "0", nsn: [9, 9] },
  ES: { code: "34", nsn: [9, 9] },
  PT: { code: "351", nsn: [9, 9] },
  // Italian numbers keep their leading 0 after +39 (landlines): no trunk prefix.
  IT: { code: "39", nsn: [6, 11] },
  SE: { code: "46", trunk: "0", nsn: [7, 9] },
  NO: { code: "47", nsn: [8, 8] },
  DK: { code: "45", nsn: [8, 8] },
  PL: { code: "48", nsn: [9, 9] },
  BR: { code: "55", trunk: "0", nsn: [10, 11] },
  // Mexico dropped its trunk prefixes in 2019; "01" still appears in old address books.
  MX: { code: "52", trunk: "01", nsn: [10, 10] },
  AR: { code: "54", trunk: "0", nsn: [10, 11] },
  CL: { code: "56", nsn: [9, 9] },
  CO: { code: "57", nsn: [10, 10] },
  PE: { code: "51", trunk: "0", nsn: [8, 9] },
  AU: { code: "61", trunk: "0", nsn: [9, 9] },
  NZ: { code: "64", trunk: "0", nsn: [8, 10] },
  IN: { code: "91", trunk: "0", nsn: [10, 10] },
  JP: { code: "81", trunk: "0", nsn: [9, 10] },
  SG: { code: "65", nsn: [8, 8] },
  ZA: { code: "27", trunk: "0", nsn: [9, 9] },
};

// Calling codes are prefix-free (ITU E.164), so the first table entry whose code starts the digits is
// the only one; several countries may share it (US/CA), with the same rule.
const BY_CODE: ReadonlyMap<string, CallingCodeRule> = new Map(
  Object.values(CALLING_CODES).map((r) => [r.code, r] as const)
);

export interface NormalizedPhone {
  /** "+<country code><number>" when `international`, bare digits otherwise. */
  value: string;
  /** True when the value carries a country calling code (E.164 shape). */
  international: boolean;
}

const MIN_DIGITS = 7;
const MAX_DIGITS = 15; // E.164 maximum

function fits(rule: CallingCodeRule, nsn: string): boolean {
  if (nsn.length < rule.nsn[0] || nsn.length > rule.nsn[1]) return false;
  if (rule.pattern && !rule.pattern.test(nsn)) return false;
  // Where the trunk prefix is "0", no national significant number starts with 0.
  return !(rule.trunk?.startsWith("0") && nsn.startsWith("0"));
}

function ruleForInternational(digits: string): CallingCodeRule | undefined {
  for (let len = 1; len <= 3; len++) {
    const rule = BY_CODE.get(digits.slice(0, len));
    if (rule) return rule;
  }
  return undefined;
}

function international(digits: string): NormalizedPhone | undefined {
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS || digits.startsWith("0")) return undefined;
  const rule = ruleForInternational(digits);
  if (!rule) return { value: `+${digits}`, international: true };
  let nsn = digits.slice(rule.code.length);
  if (rule.trunk?.startsWith("0") && nsn.startsWith("0") && fits(rule, nsn.slice(1))) nsn = nsn.slice(1);
  if (rule.code === "52" && nsn.length === 11 && nsn.startsWith("1")) nsn = nsn.slice(1);
  return fits(rule, nsn) ? { value: `+${rule.code}${nsn}`, international: true } : undefined;
}

function national(digits: string, rule: CallingCodeRule): NormalizedPhone | undefined {
  const candidates = rule.trunk && digits.startsWith(rule.trunk) ? [digits.slice(rule.trunk.length), digits] : [digits];
  for (const nsn of candidates) {
    if (fits(rule, nsn)) return { value: `+${rule.code}${nsn}`, international: true };
  }
  if (digits.startsWith(rule.code)) {
    const asInternational = international(digits);
    if (asInternational && ruleForInternational(digits) === rule) return asInternational;
  }
  return undefined;
}

/**
 * Normalizes a phone number typed by a buyer. `countryCode` is the ISO country of the address the
 * number came with (used only for numbers written without a country calling code). Returns
 * undefined for values that are not a usable phone number.
 */
export function normalizePhone(
  raw: string | null | undefined,
  countryCode?: string | null
): NormalizedPhone | undefined {
  if (typeof raw !== "string") return undefined;
  let s = raw.normalize("NFKC").trim().replace(/^tel:/i, "");
  s = s.replace(/\s*(?:ext\.?|extension|x|#)\s*\d{1,6}\s*$/i, "").replace(/\(\s*0\s*\)/g, "");
  if (/\p{L}/u.test(s)) return undefined;
  const hasPlus = s.trimStart().startsWith("+");
  const digits = s.replace(/\D/g, "");
  if (!digits || /^(\d)\1*$/.test(digits)) return undefined;

  const iso = countryCode?.trim().toUpperCase();
  const rule = iso && Object.hasOwn(CALLING_CODES, iso) ? CALLING_CODES[iso] : undefined;
  if (hasPlus) return international(digits);
  if (digits.startsWith("00")) return international(digits.slice(2));
  if (rule?.code === "1" && digits.startsWith("011")) return international(digits.slice(3));

  if (rule) {
    const result = national(digits, rule);
    if (result) return result;
  }
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS) return undefined;
  return { value: digits, international: false };
}
