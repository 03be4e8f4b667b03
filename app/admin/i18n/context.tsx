import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { Locale } from "../../shared/i18n/locale";
import { translator, type Translate } from "../../shared/i18n/translate";

interface I18n {
  locale: Locale;
  t: Translate;
  number: (n: number) => string;
  date: (iso: string | Date | null | undefined) => string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  const value = useMemo<I18n>(() => {
    const numbers = new Intl.NumberFormat(locale);
    // A fixed time zone keeps the server's and the browser's rendering the same (hydration).
    const dates = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
    return {
      locale,
      t: translator(locale),
      number: (n) => numbers.format(n),
      date: (d) => (d ? dates.format(new Date(d)) : ""),
    };
  }, [locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useI18n outside I18nProvider");
  return value;
}
