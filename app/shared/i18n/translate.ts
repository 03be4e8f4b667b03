import { en, type MessageKey } from "./en";
import { es } from "./es";
import { ptBR } from "./pt-BR";
import type { Locale } from "./locale";

const dictionaries: Record<Locale, Record<MessageKey, string>> = { en, "pt-BR": ptBR, es };

export type Params = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: Params) => string;

/**
 * A translator for one locale: `{name}` placeholders are filled from params, numbers formatted for
 * the locale. A key `x` with a numeric `count` param takes the plural form the locale's
 * Intl.PluralRules picks (`x.one`, `x.many`, …) when that key exists, else `x` itself (the "other"
 * form). As in the storefront's translations, an explicit `x.zero` comes first for 0.
 */
export function translator(locale: Locale): Translate {
  const dict = dictionaries[locale];
  const numbers = new Intl.NumberFormat(locale);
  const plurals = new Intl.PluralRules(locale);
  const form = (key: string, count: string | number | undefined): string => {
    if (count === undefined) return key;
    const n = typeof count === "number" ? count : Number(count);
    if (!Number.isFinite(n)) return key;
    if (n === 0 && `${key}.zero` in dict) return `${key}.zero`;
    const chosen = `${key}.${plurals.select(n)}`;
    return chosen in dict ? chosen : key;
  };
  return (key, params) => {
    const chosen = form(key, params?.count);
    const text = dict[chosen as MessageKey] ?? en[chosen as MessageKey] ?? key;
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const v = params[name];
      if (v === undefined) return whole;
      return typeof v === "number" ? numbers.format(v) : v;
    });
  };
}

export function isMessageKey(key: string): key is MessageKey {
  return key in en;
}
