import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, USER_AGENT } from "./browser";
import { PRODUCT_ID, snapshot } from "./fixtures";
import { ORIGIN, productPage, servePage, themeForPages, type ProxyCall } from "./page";

// The reviews block's script in Chromium, by keyboard: it asks the proxy endpoint with the state the
// shopper chose and swaps in the server-rendered page; the lightbox keeps focus and gives it back.
// The endpoint here is the reviews-page snippet itself (the real proxy route is tested with the
// local storefront).

const theme = themeForPages();
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openProduct(opts: { count?: number; locale?: string; fail?: () => boolean; design?: boolean } = {}) {
  const count = opts.count ?? 128;
  const html = opts.design
    ? await productPage(theme, null, "en", {}, true)
    : await productPage(theme, snapshot(count), opts.locale ?? "en");
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, userAgent: USER_AGENT });
  const calls: ProxyCall[] = [];
  await servePage(page, theme, html, { total: count, fail: opts.fail, calls });
  await page.goto(`${ORIGIN}/products/stoneware-mug`, { waitUntil: "networkidle" });
  await page.waitForFunction(() => customElements.get("product-reviews") !== undefined);
  return { page, calls };
}

const idle = (page: Page) => page.waitForSelector("[data-rv-slot]:not([aria-busy])", { state: "attached" });
const state = (page: Page) =>
  page.evaluate(() => {
    const p = document.querySelector("[data-rv-page]")!;
    return {
      page: p.getAttribute("data-page"),
      total: p.getAttribute("data-total"),
      first: p.querySelector(".rv-review__name")?.textContent,
      focused:
        document.activeElement?.getAttribute("data-rv-page-status") !== null
          ? "status"
          : document.activeElement?.tagName,
    };
  });

describe("reviews.js", () => {
  it("asks nothing until the shopper acts", async () => {
    const { page, calls } = await openProduct();
    expect(calls).toEqual([]);
    await page.close();
  });

  it("leaves the theme editor's sample reviews alone", async () => {
    const { page, calls } = await openProduct({ design: true });
    await page.focus("[data-rv-rating='5']");
    await page.keyboard.press("Enter");
    await page.selectOption("select[name=sort]", "created,desc");
    expect(await page.getAttribute("[data-rv-rating='5']", "aria-pressed")).toBe("false");
    expect(await page.locator("[data-rv-slot][aria-busy]").count()).toBe(0);
    expect(calls).toEqual([]);
    await page.close();
  });

  it("sorts from the keyboard with the chosen order, page size and locale", async () => {
    const { page, calls } = await openProduct({ locale: "pt-BR" });
    await page.focus("select[name=sort]");
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(
      (sort) => document.querySelector("[data-rv-page]")?.getAttribute("data-sort") === sort,
      "created,desc",
    );
    await idle(page);
    expect(calls).toHaveLength(1);
    const q = calls[0].url;
    expect(q.pathname).toBe(`/apps/reviews/products/${PRODUCT_ID}/reviews`);
    expect(Object.fromEntries(q.searchParams)).toEqual({
      sort: "created,desc",
      page: "1",
      pageSize: "5",
      locale: "pt-BR",
    });
    await page.close();
  });

  it("filters by rating bar, topic, media, text, verified and store, all in one request's parameters", async () => {
    const { page, calls } = await openProduct();
    await page.focus("[data-rv-rating='4']");
    await page.keyboard.press("Enter");
    await idle(page);
    expect(await page.getAttribute("[data-rv-rating='4']", "aria-pressed")).toBe("true");
    await page.focus("[data-rv-rating='5']");
    await page.keyboard.press("Space");
    await idle(page);
    await page.focus("[data-rv-topic='glaze']");
    await page.keyboard.press("Enter");
    await idle(page);
    await page.selectOption("select[name=filterMedia]", "pictures");
    await idle(page);
    await page.focus("input[name=hasText]");
    await page.keyboard.press("Space");
    await idle(page);
    await page.focus("input[name=verified]");
    await page.keyboard.press("Space");
    await idle(page);
    await page.selectOption("select[name=sourceStore]", "casa-ceramica");
    await idle(page);
    const last = Object.fromEntries(calls.at(-1)!.url.searchParams);
    expect(last).toEqual({
      sort: "helpfulScore,desc",
      page: "1",
      pageSize: "5",
      rating: "4,5",
      topics: "glaze",
      filterMedia: "pictures",
      hasText: "true",
      verified: "true",
      sourceStore: "casa-ceramica",
      locale: "en",
    });
    expect((await state(page)).total).toBe("7");
    // Pressing a bar again removes its rating.
    await page.focus("[data-rv-rating='4']");
    await page.keyboard.press("Enter");
    await idle(page);
    expect(calls.at(-1)!.url.searchParams.get("rating")).toBe("5");
    await page.close();
  });

  it("changes pages from the keyboard, moving focus to the new page", async () => {
    const { page, calls } = await openProduct();
    await page.focus("[data-rv-goto='2']");
    await page.keyboard.press("Enter");
    await page.waitForSelector("[data-rv-page][data-page='2']");
    await idle(page);
    expect(await state(page)).toMatchObject({ page: "2", focused: "status" });
    expect(calls.at(-1)!.url.searchParams.get("page")).toBe("2");
    await page.focus("[data-rv-goto='26']");
    await page.keyboard.press("Enter");
    await page.waitForSelector("[data-rv-page][data-page='26']");
    expect(await page.getAttribute("[data-rv-goto='27']", "disabled")).toBe("");
    expect(await page.textContent("[data-rv-live]")).toBe("Reviews 126 to 128 of 128");
    await page.close();
  });

  it("shows a translated error with a retry when the proxy fails, and retries", async () => {
    let failing = true;
    const { page } = await openProduct({ locale: "es", fail: () => failing });
    await page.focus("[data-rv-goto='2']");
    await page.keyboard.press("Enter");
    await page.waitForSelector("[data-rv-error]");
    expect(await page.textContent("[data-rv-error] .rv-empty")).toBe("No se pudieron cargar las reseñas.");
    expect(await page.evaluate(() => document.activeElement?.hasAttribute("data-rv-retry"))).toBe(true);
    failing = false;
    await page.keyboard.press("Enter");
    await page.waitForSelector("[data-rv-page][data-page='2']");
    await page.close();
  });

  it("shows the block's own error when the request never reaches the proxy", async () => {
    const { page } = await openProduct();
    await page.unroute("**/*");
    await page.route("**/*", (route) => route.abort("connectionrefused"));
    await page.click("[data-rv-goto='2']");
    await page.waitForSelector("[data-rv-error] [data-rv-retry]");
    expect(await page.textContent("[data-rv-error] .rv-empty")).toBe("Reviews could not be loaded.");
    await page.close();
  });

  it("opens media in a dialog by keyboard: focus inside, arrows step, Tab stays, Escape closes and returns focus", async () => {
    const { page } = await openProduct();
    const thumb = page.locator("[data-rv-media='image']").first();
    await thumb.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector("reviews-lightbox dialog[open] img");
    const inDialog = () => page.evaluate(() => !!document.activeElement?.closest("dialog[open]"));
    expect(await inDialog()).toBe(true);
    expect(await page.textContent("[data-rv-lightbox-position]")).toBe("1 of 2");
    await page.keyboard.press("ArrowRight");
    expect(await page.textContent("[data-rv-lightbox-position]")).toBe("2 of 2");
    expect(await page.getAttribute("dialog[open] img", "alt")).toBe("Photo 2 of 2 from Ana Souza");
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      expect(await inDialog()).toBe(true);
    }
    await page.keyboard.press("Shift+Tab");
    expect(await inDialog()).toBe(true);
    await page.keyboard.press("Escape");
    await page.waitForSelector("reviews-lightbox dialog:not([open])", { state: "attached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe(
      await thumb.getAttribute("href"),
    );
    await page.close();
  });
});
