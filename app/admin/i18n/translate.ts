import { en, type MessageKey } from "./en";
import { es } from "./es";
import { ptBR } from "./pt-BR";
import type { Locale } from "./locale";

const dictionaries: Record<Locale, Record<MessageKey, string>> = { en, "pt-BR": ptBR, es };

export type Params = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: Params) => string;

/**
 * A translator for one locale: `{name}` placeholders are filled from params, numbers formatted for
 * the locale. A key `x` with a `count` param uses `x.one` when count is 1 and that key exists.
 */
export function translator(locale: Locale): Translate {
  const dict = dictionaries[locale];
  const numbers = new Intl.NumberFormat(locale);
  return (key, params) => {
    let chosen: string = key;
    if (params && params.count === 1 && `${key}.one` in dict) chosen = `${key}.one`;
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
