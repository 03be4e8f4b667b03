import { describe, expect, it } from "vitest";
import { cacheControl } from "./cache-control";
import { errorFragment } from "./error-fragment";
import { parseReviewsQuery, resolveLocale } from "./reviews-query";

const parse = (q: string) => parseReviewsQuery(new URLSearchParams(q), { pageSize: 5 });

describe("reviews page query", () => {
  it("GIVEN the same request written two ways THEN one normal form (lists sorted, defaults filled, Shopify's parameters left out)", () => {
    const a = parse("rating=4,5&topics=size;comfort&locale=pt-br&shop=x.myshopify.com&signature=abc&timestamp=1");
    const b = parse("topics=comfort;size&rating=5,4,4&sort=helpfulScore,desc&page=1&pageSize=5&locale=pt-BR");
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.query.normal).toBe(b.query.normal);
    expect(a.query.options).toEqual({
      sortField: "helpfulScore",
      sortOrder: "desc",
      page: 1,
      pageSize: 5,
      rating: [5, 4],
      topics: ["comfort", "size"],
    });
    expect(a.query.locale).toBe("pt-BR");
  });

  it("GIVEN a parameter twice THEN a 400 message says so", () => {
    expect(parse("page=1&page=2")).toEqual({
      ok: false,
      message: expect.stringContaining("page appears more than once"),
    });
  });

  it("GIVEN locales THEN the nearest supported one", () => {
    expect(resolveLocale("es-MX")).toBe("es");
    expect(resolveLocale("pt")).toBe("pt-BR");
    expect(resolveLocale("pt_BR")).toBe("pt-BR");
    expect(resolveLocale("fr")).toBe("en");
    expect(resolveLocale(undefined)).toBe("en");
  });
});

describe("Cache-Control of proxy answers", () => {
  it("GIVEN an answer that depends on the customer THEN nobody may store it; otherwise a short public max-age", () => {
    expect(cacheControl({ dependsOnCustomer: true, maxAgeMs: 30_000 })).toBe("private, no-store");
    expect(cacheControl({ dependsOnCustomer: false, maxAgeMs: 30_000 })).toBe("public, max-age=30");
    expect(cacheControl({ dependsOnCustomer: false, maxAgeMs: 0 })).toBe("no-cache");
  });
});

describe("fallback error fragment", () => {
  it("GIVEN each locale THEN the block script's markup (a page it swaps in, a retry it wires) with the translated words", () => {
    for (const [locale, word] of [
      ["en", "Try again"],
      ["pt-BR", "Tentar novamente"],
      ["es", "Reintentar"],
    ] as const) {
      const html = errorFragment(locale, "unavailable");
      expect(html).toMatch(
        /^<div class="rv-page rv-page--error" data-rv-page data-rv-error="unavailable" role="alert">/,
      );
      expect(html).toContain(`<button type="button" class="rv-button" data-rv-retry>${word}</button>`);
    }
  });
});
