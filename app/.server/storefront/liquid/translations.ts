import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The extension's storefront locale files (`locales/<iso>.json`, one `*.default.json`), looked up the
// way Shopify's `t` filter does: the shopper's locale, then its language, then the default file;
// `{{ name }}` interpolation; a key holding `one`/`other` (and `zero`, `few`, `many`, `two`) picks its
// form by `count` with the locale's plural rules. A missing key renders as Shopify renders it,
// "translation missing: <locale>.<key>", so tests can look for it.
//
// Neither the string nor the interpolated values are HTML-escaped: Liquid escapes nothing by itself,
// so templates pass numbers or values already through `| escape`.

type Tree = { [key: string]: string | Tree };

export interface Translations {
  defaultLocale: string;
  locales: string[];
  /** The file used for `locale` (exact, then language, then the default). */
  resolve(locale: string | undefined): string;
  translate(locale: string | undefined, key: string, vars: Record<string, unknown>): string;
}

export function loadTranslations(localesDir: string): Translations {
  const files = readdirSync(localesDir).filter((f) => f.endsWith(".json") && !f.includes(".schema."));
  const trees = new Map<string, Tree>();
  let defaultLocale = "";
  for (const file of files) {
    const locale = file.replace(/\.default\.json$|\.json$/, "");
    if (file.endsWith(".default.json")) defaultLocale = locale;
    trees.set(locale.toLowerCase(), JSON.parse(readFileSync(join(localesDir, file), "utf8")) as Tree);
  }
  if (!defaultLocale) throw new Error(`${localesDir}: no <locale>.default.json`);
  const originalCase = new Map(
    [...trees.keys()].map((k) => [
      k,
      files.find((f) => f.toLowerCase().startsWith(`${k}.`))!.replace(/\.default\.json$|\.json$/, ""),
    ]),
  );

  const resolve = (locale: string | undefined): string => {
    const wanted = (locale ?? "").toLowerCase();
    if (trees.has(wanted)) return originalCase.get(wanted)!;
    const language = wanted.split("-")[0];
    if (language && trees.has(language)) return originalCase.get(language)!;
    return defaultLocale;
  };

  const lookup = (locale: string, key: string): string | Tree | undefined => {
    let node: string | Tree | undefined = trees.get(locale.toLowerCase());
    for (const part of key.split(".")) {
      if (!node || typeof node === "string") return undefined;
      node = node[part];
    }
    return node;
  };

  return {
    defaultLocale,
    locales: [...originalCase.values()],
    resolve,
    translate(requested, key, vars) {
      const locale = resolve(requested);
      const found = lookup(locale, key) ?? lookup(defaultLocale, key);
      const usedLocale = lookup(locale, key) !== undefined ? locale : defaultLocale;
      if (found === undefined) return `translation missing: ${locale}.${key}`;
      let text: string | undefined;
      if (typeof found === "string") text = found;
      else text = pluralForm(found, usedLocale, vars.count);
      if (text === undefined) return `translation missing: ${locale}.${key}`;
      return interpolate(text, vars);
    },
  };
}

const pluralRules = new Map<string, Intl.PluralRules>();

function pluralForm(forms: Tree, locale: string, count: unknown): string | undefined {
  const n = typeof count === "number" ? count : Number(count);
  if (!Number.isFinite(n)) return undefined;
  // Shopify (Ruby I18n) takes an explicit `zero` form for 0 before the language's own rule.
  if (n === 0 && typeof forms.zero === "string") return forms.zero;
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const category = rules.select(n);
  const form = forms[category] ?? forms.other;
  return typeof form === "string" ? form : undefined;
}

function interpolate(text: string, vars: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([\w-]+)\s*\}\}/g, (whole, name: string) =>
    name in vars ? stringify(vars[name]) : whole,
  );
}

function stringify(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "object" && typeof (v as { valueOf?: unknown }).valueOf === "function") {
    const primitive = (v as { valueOf(): unknown }).valueOf();
    if (primitive !== v) return String(primitive);
  }
  return String(v);
}
