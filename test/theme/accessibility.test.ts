import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockScriptsRan, launchChromium, USER_AGENT } from "./browser";
import { snapshot } from "./fixtures";
import { axeViolations, axeViolationsOf } from "../helpers/axe";
import { ORIGIN, productPage, servePage, themeForPages } from "./page";

// axe-core (WCAG 2.2 A and AA rules, target size included) on a product page holding the blocks, at
// phone and desktop widths, before and after the shopper filters and opens the lightbox.

const theme = themeForPages();
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function violations(
  count: number | null,
  locale: string,
  width: number,
  act?: "filter" | "lightbox",
  design = false,
) {
  const s = count === null ? null : snapshot(count);
  const page = await browser.newPage({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  await servePage(page, theme, await productPage(theme, s, locale, {}, design), { total: count ?? 0 });
  await page.goto(`${ORIGIN}/products/stoneware-mug`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  if (act === "filter") {
    await page.click("[data-rv-rating='5']");
    await page.waitForSelector("[data-rv-slot]:not([aria-busy]) [data-rv-page][data-total='7']");
  }
  if (act === "lightbox") {
    await page.click("[data-rv-media='image']");
    await page.waitForSelector("dialog[open] img");
  }
  const result = await axeViolations(page, {
    tags: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
  });
  await page.close();
  return result;
}

describe("accessibility of the blocks (axe-core)", () => {
  it.each([375, 1280])("has no violations with reviews, at %i px", async (width) => {
    expect(await violations(128, "en", width)).toEqual([]);
  });
  it("has no violations in pt-BR with one review, without reviews, and in the theme editor sample", async () => {
    expect(await violations(1, "pt-BR", 375)).toEqual([]);
    expect(await violations(0, "es", 1280)).toEqual([]);
    expect(await violations(null, "en", 1280, undefined, true)).toEqual([]);
  });
  it("has no violations after filtering and with the lightbox open", async () => {
    expect(await violations(128, "en", 1280, "filter")).toEqual([]);
    expect(await violations(128, "en", 375, "lightbox")).toEqual([]);
  });

  it("GIVEN a block missing its image text and its button name THEN the check names both (it can fail)", async () => {
    const page = await browser.newPage({ userAgent: USER_AGENT });
    await page.setContent(
      '<main><section id="block"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button></section></main>',
    );
    const found = await axeViolationsOf(page, { within: "#block" });
    await page.close();
    expect(found.map((v) => v.id).sort()).toEqual(["button-name", "image-alt"]);
    expect(found.find((v) => v.id === "image-alt")?.nodes).toEqual(["img"]);
  });
});
