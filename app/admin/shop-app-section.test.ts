import { AppProvider } from "@shopify/polaris";
import polarisEn from "@shopify/polaris/locales/en.json";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ShopAppStatus } from "../.server/shopapp/status";
import { I18nProvider } from "./i18n/context";
import type { Locale } from "../shared/i18n/locale";
import { ShopAppSection } from "./shop-app-section";

// The Shop app section renders what the status says, in the merchant's language, with every left-out
// reason worded (never a raw code).

const render = (status: ShopAppStatus, locale: Locale = "en") =>
  renderToStaticMarkup(
    createElement(
      AppProvider,
      { i18n: polarisEn },
      createElement(I18nProvider, { locale, children: createElement(ShopAppSection, { status }) }),
    ),
  )
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

const enabled: ShopAppStatus = {
  program: "enabled",
  checkedAt: "2026-11-27T09:00:00.000Z",
  backfill: "done",
  eligible: 1250,
  syndicated: 1200,
  leftOut: [
    { reason: "no_order", count: 38 },
    { reason: "no_customer", count: 11 },
    { reason: "refused", count: 1 },
  ],
  inShopify: 1200,
};

describe("Shop app section", () => {
  it("GIVEN a shop in the program THEN its figures and each reason, worded", () => {
    const text = render(enabled);
    expect(text).toContain("On: this store is in Shopify's product review program");
    expect(text).toContain("1,250");
    expect(text).toContain("Shopify holds 1,200 reviews.");
    expect(text).toContain("Not tied to an order (the Shop app needs the order)");
    expect(text).toContain("38 reviews");
    expect(text).toContain("1 review");
    expect(text).not.toMatch(/no_order|no_customer|shopApp\./);
  });

  it("GIVEN a shop outside the program THEN why, and no figures", () => {
    const text = render({ ...enabled, program: "not-granted", eligible: 0, syndicated: 0, leftOut: [] }, "pt-BR");
    expect(text).toContain("Indisponível");
    expect(text).toContain("todos os dias");
    expect(text).not.toContain("Avaliações publicadas");
  });

  it("GIVEN every language THEN no key shows through", () => {
    for (const locale of ["en", "pt-BR", "es"] as const) {
      expect(render({ ...enabled, backfill: "in-progress" }, locale)).not.toMatch(/shopApp\./);
      expect(render({ ...enabled, program: "unknown", checkedAt: null }, locale)).not.toMatch(/shopApp\./);
    }
  });
});
