import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from "libphonenumber-js/min";

// Phone numbers as buyers type them into checkout, turned into E.164 for the service's SMS and
// WhatsApp notifications. The numbering plans come from libphonenumber-js with its "min" metadata:
// lengths and the loose national pattern of every country. Landlines stay accepted, as before (the
// service picks the channel), which rules out the "mobile" metadata; "max" would add per-type
// patterns nobody here reads.
//
// Cost, measured 2026-11 with libphonenumber-js 1.13.16 on Node 20 (2 shared cores):
// - node_modules +10.4 MB (the package ships every metadata set and build); what this module loads
//   bundles to 177 kB (122 kB minified, 29 kB gzip) against 4 kB for the former hand-written table.
//   Orders are mapped in the worker: the web server's bundle holds none of it, the browser none.
// - Memory: importing adds 1.0–1.5 MB of RSS (the table 0.3 MB); after parsing 10,000 numbers of
//   BR, ES, MX, PT and US forms, RSS is 61–63 MB against 57–60 MB with the table, heap +1.1 MB.
// - Time: about 0.26 ms a number (10,000 in 2.5–2.7 s; the table took 0.2–0.4 s), under a
//   millisecond an order for its four candidate phones.
//
// Rules, in order:
//
// 1. "tel:" prefixes, extensions ("ext 12", "x12", "#12") and the "(0)" of "+44 (0)20 ..." go.
//    Any other letter means it is not a phone number (vanity numbers, "n/a", "none"): dropped.
// 2. International forms: "+…", "00…", and "011…" when the country is in the NANP (+1). A number
//    the metadata finds impossible for its calling code is dropped, unless it is Mexican and
//    without the old mobile "1" after +52 it fits.
// 3. National forms need the address country (any ISO code the metadata knows): its national
//    prefix is stripped and the calling code added; a number that already starts with the calling
//    code (the "+" forgotten) is recognised too. Mexico's retired prefixes are still read.
// 4. Anything else with 7 to 15 digits is kept as bare digits (the service may still know the
//    store's country); fewer or more digits, or one digit repeated, is dropped.

export interface NormalizedPhone {
  /** "+<country code><number>" when `international`, bare digits otherwise. */
  value: string;
  /** True when the value carries a country calling code (E.164 shape). */
  international: boolean;
}

const MIN_DIGITS = 7;
const MAX_DIGITS = 15; // E.164 maximum

// Mexico dropped its national prefixes in 2019 ("01" long distance, "044"/"045" mobile), and the
// "1" that mobiles took after +52; the metadata no longer knows them, address books still have them.
const MX_OLD_PREFIX = /^(?:01|04[45])(\d{10})$/;

// Germany and Austria have national numbers of four or five digits; the service, like the rest of
// this module, takes at least seven in all.
function e164(parsed: PhoneNumber | undefined): NormalizedPhone | undefined {
  if (!parsed?.isValid() || parsed.number.length - 1 < MIN_DIGITS) return undefined;
  return { value: parsed.number, international: true };
}

function international(digits: string): NormalizedPhone | undefined {
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS || digits.startsWith("0")) return undefined;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  const found = e164(parsed);
  if (found || parsed?.countryCallingCode !== "52") return found;
  const nsn = parsed.nationalNumber;
  if (nsn.length !== 11 || !nsn.startsWith("1")) return undefined;
  return e164(parsePhoneNumberFromString(`+52${nsn.slice(1)}`));
}

function national(digits: string, country: CountryCode): NormalizedPhone | undefined {
  const found = e164(parsePhoneNumberFromString(digits, country));
  if (found || country !== "MX") return found;
  const old = MX_OLD_PREFIX.exec(digits);
  return old ? e164(parsePhoneNumberFromString(old[1], "MX")) : undefined;
}

/**
 * Normalizes a phone number typed by a buyer. `countryCode` is the ISO country of the address the
 * number came with (used only for numbers written without a country calling code). Returns
 * undefined for values that are not a usable phone number.
 */
export function normalizePhone(
  raw: string | null | undefined,
  countryCode?: string | null,
): NormalizedPhone | undefined {
  if (typeof raw !== "string") return undefined;
  let s = raw.normalize("NFKC").trim().replace(/^tel:/i, "");
  s = s.replace(/\s*(?:ext\.?|extension|x|#)\s*\d{1,6}\s*$/i, "").replace(/\(\s*0\s*\)/g, "");
  if (/\p{L}/u.test(s)) return undefined;
  const hasPlus = s.trimStart().startsWith("+");
  const digits = s.replace(/\D/g, "");
  if (!digits || /^(\d)\1*$/.test(digits)) return undefined;

  const iso = countryCode?.trim().toUpperCase() ?? "";
  const country = isSupportedCountry(iso) ? iso : undefined;
  if (hasPlus) return international(digits);
  if (digits.startsWith("00")) return international(digits.slice(2));
  if (country && getCountryCallingCode(country) === "1" && digits.startsWith("011")) {
    return international(digits.slice(3));
  }

  if (country) {
    const result = national(digits, country);
    if (result) return result;
  }
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS) return undefined;
  return { value: digits, international: false };
}
