import fc from "fast-check";

// Text generators and output checks shared by the mapper fuzz tests. Shopify text is valid
// UTF-8, so every generated string is well-formed UTF-16; what varies is everything a merchant or a
// buyer can type: astral characters, right-to-left scripts, combining marks, invisible characters,
// HTML-ish fragments, and strings far longer than any cap of ours.

const ODD_SAMPLES = [
  "",
  " ",
  "\u00a0",
  "\t\n ",
  "Default Title",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝕿𝖊𝖊",
  "😀👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈",
  "𠜎𠜱𠝹𠱓",
  "مرحبا بالعالم",
  "שלום עולם",
  "\u202eevil\u202c name",
  "\u200f\u200e",
  "e\u0301le\u0300ve",
  "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
  "a\u0308\u0308\u0308\u0308\u0308\u0308",
  "\u200b\ufeff\u200d",
  "&amp;&#0;&#xD800;&#x1F600;&bogus;",
  "<p>Hi</p><script>x</script>",
  "O'Brien-Łukasz",
  "山田 太郎",
  "constructor",
  "__proto__",
] as const;

/** One unit of a long string: the units chosen so that a cut may fall inside a pair or before a mark. */
const LONG_UNITS = ["😀", "𝔘", "e\u0301", "ש", "x ", "ab", "\u0308", "word "] as const;

/** Short odd text: any grapheme, any code point, and the curated samples. */
export const oddText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_SAMPLES) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 16 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...ODD_SAMPLES), fc.constantFrom(...ODD_SAMPLES)).map(([a, b]) => `${a} ${b}`),
  },
);

/**
 * A string of `min`..`max` UTF-16 units, built by repetition (cheap, so thousands of runs stay fast),
 * with a 0-3 unit ASCII prefix so that a cap at any length lands on every kind of boundary.
 */
export function longText(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...LONG_UNITS), fc.integer({ min, max }))
    .map(([prefix, unit, length]) =>
      ("abc".slice(0, prefix) + unit.repeat(Math.ceil(length / unit.length))).slice(0, length),
    )
    .map((s) => (isWellFormed(s) ? s : s.slice(0, -1)));
}

/** Mostly short odd text, sometimes a long one. */
export function anyText(longMax: number): fc.Arbitrary<string> {
  return fc.oneof({ weight: 12, arbitrary: oddText }, { weight: 1, arbitrary: longText(256, longMax) });
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** String.prototype.isWellFormed (ES2024, beyond this project's lib setting). */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

export const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
export const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Every leaf of a JSON value with its path. */
export function* leaves(value: unknown, path = "$"): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* leaves(v, `${path}[${i}]`);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) yield* leaves(v, `${path}.${k}`);
  else yield [path, value];
}

/**
 * Why a request body would not survive the trip, or null: nulls and empty strings (the mappers
 * omit a field rather than send it empty), broken surrogate pairs (a cap cut an astral character in
 * half: invalid UTF-8 on the wire), and text the JSON round trip changes.
 */
export function bodyDefect(body: unknown): string | null {
  for (const [path, leaf] of leaves(body)) {
    if (leaf === null || leaf === undefined) return `${path} is ${String(leaf)}`;
    if (typeof leaf === "string") {
      if (leaf === "") return `${path} is empty`;
      if (!isWellFormed(leaf)) return `${path} has a broken surrogate pair`;
    }
  }
  const text = JSON.stringify(body);
  if (JSON.stringify(JSON.parse(text)) !== text) return "changes in a JSON round trip";
  return null;
}

/**
 * How many runs a fuzz or property test makes: `full` under FUZZ_SCALE=1 (`npm run test:full`), a
 * fifth of it by default (FUZZ_SCALE=0.2), never fewer than 50. The default keeps `npm test` quick;
 * every run draws a fresh seed, so the ordinary runs still explore new inputs over time.
 */
export function fuzzRuns(full: number): number {
  const raw = process.env.FUZZ_SCALE;
  const scale = raw === undefined || raw === "" ? 0.2 : Number(raw);
  if (!Number.isFinite(scale) || scale <= 0)
    throw new Error(`FUZZ_SCALE must be a positive number, not ${JSON.stringify(raw)}`);
  return Math.max(50, Math.round(full * scale));
}
