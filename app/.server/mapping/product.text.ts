// Text helpers of the product mapper: Shopify descriptions are merchant HTML (often pasted from
// Word or a marketplace, with inline styles and tables); the service wants plain text, which its AI
// features read. No HTML parser dependency: descriptions are small, and a wrong guess here costs a
// stray space, not a security hole (the text is never rendered as HTML by us).

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  times: "×",
  divide: "÷",
  plusmn: "±",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  sup2: "²",
  sup3: "³",
  micro: "µ",
  para: "¶",
  sect: "§",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  iexcl: "¡",
  iquest: "¿",
  shy: "",
  zwj: "\u200d",
  zwnj: "\u200c",
  aacute: "á",
  eacute: "é",
  iacute: "í",
  oacute: "ó",
  uacute: "ú",
  yacute: "ý",
  Aacute: "Á",
  Eacute: "É",
  Iacute: "Í",
  Oacute: "Ó",
  Uacute: "Ú",
  Yacute: "Ý",
  agrave: "à",
  egrave: "è",
  igrave: "ì",
  ograve: "ò",
  ugrave: "ù",
  Agrave: "À",
  Egrave: "È",
  Igrave: "Ì",
  Ograve: "Ò",
  Ugrave: "Ù",
  acirc: "â",
  ecirc: "ê",
  icirc: "î",
  ocirc: "ô",
  ucirc: "û",
  Acirc: "Â",
  Ecirc: "Ê",
  Icirc: "Î",
  Ocirc: "Ô",
  Ucirc: "Û",
  auml: "ä",
  euml: "ë",
  iuml: "ï",
  ouml: "ö",
  uuml: "ü",
  yuml: "ÿ",
  Auml: "Ä",
  Euml: "Ë",
  Iuml: "Ï",
  Ouml: "Ö",
  Uuml: "Ü",
  atilde: "ã",
  otilde: "õ",
  ntilde: "ñ",
  Atilde: "Ã",
  Otilde: "Õ",
  Ntilde: "Ñ",
  ccedil: "ç",
  Ccedil: "Ç",
  szlig: "ß",
  aring: "å",
  Aring: "Å",
  aelig: "æ",
  AElig: "Æ",
  oslash: "ø",
  Oslash: "Ø",
  ordm: "º",
  ordf: "ª",
};

function codePoint(n: number): string {
  // Invalid references (NUL, surrogates, beyond Unicode) are dropped rather than guessed.
  if (!Number.isFinite(n) || n <= 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return "";
  return String.fromCodePoint(n);
}

/** Decodes numeric references and the named entities merchants' editors actually produce. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (whole, body: string) => {
    if (body[0] === "#") {
      const hex = body[1] === "x" || body[1] === "X";
      return codePoint(parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    const named = NAMED_ENTITIES[body];
    // An unknown name ("&foo") is left as typed: it is more likely text than an entity.
    return named ?? whole;
  });
}

const BLOCK_TAGS =
  "address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|tfoot|thead|tr|ul";
// A tag's inside never contains "<": an opener that is never closed then fails at the next "<"
// instead of scanning to the end of the text, which made a description of many unclosed openers
// ("<p<p<p…", pasted from a broken editor) take seconds per 100 KB. The cost: a "<" inside an
// attribute value (invalid HTML; editors write &lt;) leaves the tag's start in the text.
const TAG_BODY = "[^<>]*";
const BLOCK_RE = new RegExp(`<\\/?(?:${BLOCK_TAGS})\\b${TAG_BODY}>`, "gi");
const CELL_RE = new RegExp(`<\\/?(?:td|th)\\b${TAG_BODY}>`, "gi");
const ANY_TAG_RE = new RegExp(`<\\/?[A-Za-z!?]${TAG_BODY}>`, "g");
const RAW_TEXT_OPENER = new RegExp(`<(script|style|template|noscript|iframe|svg|object)\\b${TAG_BODY}>`, "gi");

/**
 * Drops elements whose content is not text (scripts, styles, embedded documents) with their
 * content, each up to its first closing tag; an element never closed is left to the tag stripper.
 * A loop rather than one lazy regex: an element never closed costs one search of the rest of the
 * text, not one per opener of its kind.
 */
function dropRawTextElements(s: string): string {
  const unclosed = new Set<string>();
  const opener = new RegExp(RAW_TEXT_OPENER.source, "gi");
  let out = "";
  let kept = 0;
  for (let m = opener.exec(s); m; m = opener.exec(s)) {
    const name = m[1]!.toLowerCase();
    if (unclosed.has(name)) continue;
    const closing = new RegExp(`</${name}\\s*>`, "gi");
    closing.lastIndex = opener.lastIndex;
    const close = closing.exec(s);
    if (!close) {
      // No closing tag after this opener: none after any later opener of the same name either.
      unclosed.add(name);
      continue;
    }
    out += `${s.slice(kept, m.index)} `;
    kept = closing.lastIndex;
    opener.lastIndex = kept;
  }
  return out + s.slice(kept);
}

/**
 * Plain text of an HTML description: scripts, styles and comments dropped, tags stripped, entities
 * decoded, whitespace collapsed as a browser would, and block boundaries (paragraphs, list items,
 * headings, line breaks, table rows) kept as single newlines. Table cells become spaces.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return "";
  let s = html;
  s = s.replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  s = dropRawTextElements(s);
  // Source newlines are just spaces in HTML; only tags below make line breaks.
  s = s.replace(/\s+/g, " ");
  s = s.replace(CELL_RE, " ");
  s = s.replace(BLOCK_RE, "\n");
  s = s.replace(ANY_TAG_RE, "");
  s = decodeEntities(s);
  return s
    .split(/\r\n|\r|\n/)
    .map((line) =>
      line
        .replace(/[^\S\n]+/g, " ")
        .replace(/[\u200b\ufeff]/g, "")
        .trim(),
    )
    .filter((line) => line.length > 0)
    .join("\n");
}

/** Drops a dangling high surrogate so a cut never leaves half an emoji. */
function dropBrokenSurrogate(s: string): string {
  const last = s.charCodeAt(s.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? s.slice(0, -1) : s;
}

/**
 * Cuts `s` to at most `max` UTF-16 units, at a word boundary when one is near (within the last
 * fifth), with an ellipsis when asked. Strings within the limit are returned unchanged.
 */
export function capText(s: string, max: number, ellipsis = false): string {
  if (s.length <= max) return s;
  const room = ellipsis ? max - 1 : max;
  let cut = dropBrokenSurrogate(s.slice(0, room));
  // Only back off to a boundary when the text continues mid-word.
  if (/\S/.test(s[room] ?? " ")) {
    const boundary = cut.search(/\s\S*$/);
    if (boundary > room * 0.8) cut = cut.slice(0, boundary);
  }
  cut = cut.trimEnd();
  return ellipsis ? `${cut}…` : cut;
}

export const SHORT_DESCRIPTION_MAX = 160;
// A "sentence" shorter than this ("New!", "Dr.") is not a useful summary: keep reading.
const MIN_SENTENCE = 20;

/**
 * The short description: the first sentence of the first paragraph when it is between 20 and
 * 160 characters (a sentence ends at `.`, `!`, `?`, `…` or a CJK stop followed by a space or the end),
 * otherwise the first paragraph cut to 160 characters at a word boundary with an ellipsis.
 */
export function shortDescription(text: string): string {
  const first = text.split("\n", 1)[0]?.trim() ?? "";
  if (!first) return "";
  const enders = /[.!?…。！？](?=\s|$)/gu;
  for (let m = enders.exec(first); m; m = enders.exec(first)) {
    const end = m.index + m[0].length;
    if (end < MIN_SENTENCE) continue;
    if (end <= SHORT_DESCRIPTION_MAX) return first.slice(0, end);
    break;
  }
  return capText(first, SHORT_DESCRIPTION_MAX, true);
}

/** Trimmed string, or undefined when empty: optional fields are omitted, never sent as "". */
export function clean(s: string | null | undefined, max?: number): string | undefined {
  if (s == null) return undefined;
  const t = s.replace(/\s+/g, " ").trim();
  if (!t) return undefined;
  return max ? capText(t, max) : t;
}
