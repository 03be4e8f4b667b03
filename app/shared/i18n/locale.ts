// The admin's languages. Shopify opens an embedded app with `locale` in the URL (the merchant's
// admin language, e.g. "pt-BR", "es", "en"); anything else falls back to English.

export const locales = ["en", "pt-BR", "es"] as const;
export type Locale = (typeof locales)[number];

export function pickLocale(requested: string | null | undefined): Locale {
  const tag = (requested ?? "").trim().toLowerCase();
  if (tag === "pt" || tag.startsWith("pt-")) return "pt-BR";
  if (tag === "es" || tag.startsWith("es-")) return "es";
  return "en";
}
