import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockScriptsRan, launchChromium, USER_AGENT } from "./browser";
import { snapshot } from "./fixtures";
import { ORIGIN, productPage, servePage, themeForPages } from "./page";

// axe-core (WCAG 2.2 A and AA rules, target size included) on a product page holding the blocks, at
// phone and desktop widths, before and after the shopper filters and opens the lightbox.

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
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
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const r = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
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
});
