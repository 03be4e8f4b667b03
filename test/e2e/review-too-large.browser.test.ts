import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, type StorefrontStack } from "../helpers/storefront-stack";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";

// A review over the app's body limit, in Chromium through the local storefront and the app proxy:
// the shopper reads the theme's translated "too large" message (not "unavailable", not a network
// error), keeps the text, and a shorter review then goes through on the same page.

let st: StorefrontStack;
let browser: Browser;

beforeAll(async () => {
  st = await startStorefrontStack("review-too-large", { PROXY_CACHE_MS: "0", PROXY_WRITE_BODY_MAX_BYTES: "1024" });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

describe("a review too large for the app proxy", () => {
  it.each([
    // One customer each: a buyer reviews a product once.
    ["en", "What you wrote is too large to send. Please shorten it and try again.", "7001"],
    ["es", "Lo que escribiste es demasiado grande para enviarlo. Acórtalo e inténtalo de nuevo.", "7003"],
  ])(
    "GIVEN a logged-in customer writing in %s WHEN the review is over the limit THEN they read the translated message, keep their text, and a shorter one is sent",
    async (locale, message, customer) => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        userAgent: USER_AGENT,
        locale,
      });
      await context.addCookies([{ name: "local_storefront_customer", value: customer, url: st.storefront.origin }]);
      const page = await context.newPage();
      const path = locale === "en" ? "" : `/${locale}`;
      await page.goto(`${st.storefront.origin}${path}/products/${st.reviewedHandle}`, { waitUntil: "networkidle" });
      await blockScriptsRan(page);
      await page.locator("[data-rv-write]").click();
      await page.locator("review-form").waitFor();
      await page.locator(".rv-rate__star").nth(3).click();
      const long = `${locale} ${"Long words about this product. ".repeat(100)}`.slice(0, 3000);
      await page.locator("review-form textarea[name=text]").fill(long);
      const answer = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/reviews"));
      await page.locator("review-form button[type=submit]").click();
      expect((await answer).status()).toBe(413);
      await expect.poll(() => page.locator("review-form [data-rv-form-status]").textContent()).toBe(message);
      expect(await page.locator("review-form textarea[name=text]").inputValue()).toBe(long);

      const short = `Short and sweet (${locale}).`;
      await page.locator("review-form textarea[name=text]").fill(short);
      await page.locator("review-form button[type=submit]").click();
      await page.locator('[data-rv-form-step="extras"]').waitFor();
      expect(st.s.emu.control.state("acme").reviews.some((r) => r.text === short)).toBe(true);
      await context.close();
    },
    60_000,
  );
});
