import { describe, expect, it } from "vitest";
import { translator } from "./translate";

// The plural form comes from the locale's own rules (Intl.PluralRules), as on the storefront:
// Portuguese counts 0 and 1.5 as singular, English and Spanish only 1.

describe("the admin translator's plurals", () => {
  it.each([
    ["en", 0, "0 of the chosen products have not reached the reviews service yet."],
    ["en", 1, "1 of the chosen products has not reached the reviews service yet."],
    ["en", 2, "2 of the chosen products have not reached the reviews service yet."],
    ["en", 1.5, "1.5 of the chosen products have not reached the reviews service yet."],
    ["pt-BR", 0, "0 dos produtos escolhidos ainda não chegou ao serviço de avaliações."],
    ["pt-BR", 1, "1 dos produtos escolhidos ainda não chegou ao serviço de avaliações."],
    ["pt-BR", 2, "2 dos produtos escolhidos ainda não chegaram ao serviço de avaliações."],
    ["pt-BR", 1.5, "1,5 dos produtos escolhidos ainda não chegou ao serviço de avaliações."],
    ["es", 0, "0 de los productos elegidos aún no han llegado al servicio de reseñas."],
    ["es", 1, "1 de los productos elegidos aún no ha llegado al servicio de reseñas."],
    ["es", 2, "2 de los productos elegidos aún no han llegado al servicio de reseñas."],
    ["es", 1.5, "1,5 de los productos elegidos aún no han llegado al servicio de reseñas."],
  ] as const)("%s, count %s: the locale's form", (locale, count, expected) => {
    const text = translator(locale)("groups.notSent", { count });
    expect(text.slice(0, expected.length)).toBe(expected);
  });

  const bulkDone = {
    en: ["No reviews updated.", "1 review updated.", "2 reviews updated.", "1,000,000 reviews updated."],
    "pt-BR": [
      "Nenhuma avaliação atualizada.",
      "1 avaliação atualizada.",
      "2 avaliações atualizadas.",
      "1.000.000 avaliações atualizadas.",
    ],
    es: [
      "Ninguna reseña actualizada.",
      "1 reseña actualizada.",
      "2 reseñas actualizadas.",
      "1.000.000 reseñas actualizadas.",
    ],
  } as const;

  it.each(Object.entries(bulkDone) as [keyof typeof bulkDone, readonly string[]][])(
    "%s: an explicit zero comes before the rules; a form no message has falls back to other",
    (locale, texts) => {
      const t = translator(locale);
      // 1,000,000 is "many" in Portuguese and Spanish, a form no message has.
      expect([0, 1, 2, 1_000_000].map((n) => t("reviews.bulkDone", { count: n, ok: n }))).toEqual(texts);
    },
  );

  it("GIVEN a count as a numeric string THEN it is counted; without a count the key is taken as it is", () => {
    expect(translator("en")("surveys.overAll", { count: "1" })).toBe("Of the one answer.");
    expect(translator("es")("surveys.overAll", { count: 0 })).toBe("Aún no hay respuestas.");
    expect(translator("pt-BR")("surveys.overAll")).toBe("De todas as {count} respostas.");
  });
});
