// Product codes (GTIN, EAN, MPN) read from Shopify variants. The service passes them on to shopping
// feeds and review syndication, where a wrong code attaches reviews to someone else's product: a
// code is sent only when it proves itself (GS1 check digit, globally assigned range), never "as is".

export interface ProductCodes {
  gtin?: string;
  ean?: string;
  mpn?: string;
}

/** A typed barcode of a variant (Admin API 2026-10): the standard it conforms to, null when none was declared. */
export interface TypedBarcode {
  type?: string | null;
  value: string;
}

export interface CodeSource {
  /** The single barcode (deprecated in 2026-10: the first of `barcodes`); bulk lines and webhooks still carry it. */
  barcode?: string | null;
  barcodes?: readonly TypedBarcode[] | null;
  sku?: string | null;
}

// Standards whose codes are GTINs (an ISBN-13 is an EAN-13); an ASIN is Amazon's own and is not.
const GTIN_TYPES = new Set(["GTIN", "UPC", "EAN", "ISBN"]);

const GTIN_LENGTHS = new Set([8, 12, 13, 14]);

/**
 * A barcode as digits only. Printed UPC/EAN codes are often typed with spaces or hyphens
 * ("0 12345 67890 5"); those separators are dropped, anything else makes it "not a barcode".
 */
export function normalizeBarcode(raw: string | null | undefined): string | null {
  if (raw == null) return null;
  const compact = raw.trim().replace(/[\s-]+/g, "");
  return /^\d+$/.test(compact) ? compact : null;
}

/** GS1 mod-10 check digit over the code without its last digit. */
function gs1CheckDigit(body: string): number {
  let sum = 0;
  // Weights alternate 3,1,3,... starting from the rightmost digit of the body.
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += Number(body[i]) * w;
  return (10 - (sum % 10)) % 10;
}

/**
 * Codes that pass the check digit but are not global trade item numbers: in-store (restricted
 * circulation) numbers 020-029, 040-049, 200-299, US coupons 050-059, refund receipts 980, coupons
 * 981-984 and 99x.
 * Seen as the 13-digit form (UPC-12 gets a leading 0; a GTIN-14 drops its packaging indicator).
 */
function isRestrictedRange(code: string): boolean {
  if (code.length === 8) return code[0] === "0" || code[0] === "2";
  const gtin13 = code.length === 12 ? `0${code}` : code.length === 14 ? code.slice(1) : code;
  const p3 = Number(gtin13.slice(0, 3));
  return (
    (p3 >= 20 && p3 <= 29) ||
    (p3 >= 40 && p3 <= 59) ||
    (p3 >= 200 && p3 <= 299) ||
    (p3 >= 980 && p3 <= 984) ||
    p3 >= 990
  );
}

/** True for an 8, 12, 13 or 14-digit code with a valid GS1 check digit in a global range. */
export function isValidGtin(code: string): boolean {
  if (!/^\d+$/.test(code) || !GTIN_LENGTHS.has(code.length)) return false;
  if (/^0+$/.test(code)) return false;
  if (gs1CheckDigit(code.slice(0, -1)) !== Number(code[code.length - 1])) return false;
  return !isRestrictedRange(code);
}

/**
 * The MPN rule: a SKU is taken as a manufacturer part number when, trimmed, it is 3 to 70
 * characters of letters, digits and `. _ / -` (no spaces), starts with a letter or digit, contains
 * at least one digit, and is not barcode-shaped (all digits with 8, 12, 13 or 14 of them: valid
 * ones are GTINs, invalid ones are mistyped barcodes, and neither is a part number).
 * Free-text SKUs ("Red shirt M") and pure words ("TSHIRT-RED") are internal codes, not MPNs.
 */
export function looksLikeMpn(sku: string | null | undefined): boolean {
  const s = sku?.trim();
  if (!s) return false;
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{2,69}$/.test(s)) return false;
  if (!/\d/.test(s)) return false;
  if (/^\d+$/.test(s) && GTIN_LENGTHS.has(s.length)) return false;
  return true;
}

/** The first valid GTIN of `candidates`, normalised. */
function firstGtin(candidates: Iterable<string | null | undefined>): string | null {
  for (const raw of candidates) {
    const code = normalizeBarcode(raw);
    if (code && isValidGtin(code)) return code;
  }
  return null;
}

function* typedGtinCandidates(variants: readonly CodeSource[]) {
  for (const v of variants)
    for (const b of v.barcodes ?? []) if (b.type && GTIN_TYPES.has(b.type.toUpperCase())) yield b.value;
}

// As before typed barcodes: each variant's single barcode, or its untyped ones (never an ASIN).
function* untypedCandidates(variants: readonly CodeSource[]) {
  for (const v of variants) {
    yield v.barcode;
    for (const b of v.barcodes ?? []) if (!b.type) yield b.value;
  }
}

/**
 * gtin/ean from the first barcode a merchant typed as a GTIN, UPC, EAN or ISBN that is a valid
 * GTIN, across the variants in order; failing that, from the first variant whose untyped barcode
 * is one (ean only for 13 digits, which includes ISBN-13; UPC-12, EAN-8 and GTIN-14 go to gtin
 * only); mpn from the first variant whose SKU passes `looksLikeMpn`.
 */
export function productCodes(variants: readonly CodeSource[]): ProductCodes {
  const codes: ProductCodes = {};
  const gtin = firstGtin(typedGtinCandidates(variants)) ?? firstGtin(untypedCandidates(variants));
  if (gtin) {
    codes.gtin = gtin;
    if (gtin.length === 13) codes.ean = gtin;
  }
  for (const v of variants) {
    if (looksLikeMpn(v.sku)) {
      codes.mpn = v.sku!.trim();
      break;
    }
  }
  return codes;
}
