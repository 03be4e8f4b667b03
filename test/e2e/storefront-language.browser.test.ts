import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, type StorefrontStack } from "../helpers/storefront-stack";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// A Brazilian shop's pages as its shoppers read them: prices through the shop's money format (as a
// theme's `| money`), dates in the page's language, customers by name (never "#7001"), and the
// words the app owns in Portuguese. What the service sends (review text, topics, a badge label it
// was given) is shown as sent.

const shoot = shotsIn("storefront-language");
const [ANA] = STOREFRONT_CUSTOMERS as [(typeof STOREFRONT_CUSTOMERS)[number]];
let st: StorefrontStack;
let browser: Browser;

beforeAll(async () => {
  st = await startStorefrontStack("storefront-language", { PROXY_CACHE_MS: "0" }, 10, undefined, {
    format: "R$ {{amount_with_comma_separator}}",
    currencyCode: "BRL",
  });
  await st.placeOrder(ANA, [1], { delivered: true, at: new Date("2026-11-03T12:00:00Z") });
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

async function open(
  width: number,
  path: string,
  customer: string | null = null,
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  if (customer)
    await context.addCookies([{ name: "local_storefront_customer", value: customer, url: st.storefront.origin }]);
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: { value: number; input: boolean }[] };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        w.__shifts.push({ value: e.value, input: e.hadRecentInput });
    }).observe({ type: "layout-shift", buffered: true });
  });
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${st.storefront.origin}${path}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return { page, errors };
}

const price = (p: { price: string | null }) => `R$ ${Number(p.price).toFixed(2).replace(".", ",")}`;

describe("a Brazilian shop's pages", () => {
  for (const prefix of ["", "/pt-BR"]) {
    for (const width of [375, 1280]) {
      it(`GIVEN the shop's money format WHEN ${prefix || "/"} product and catalog pages render at ${width} px THEN prices print through it, not as dollars`, async () => {
        const product = (await st.storefront.reader.product(st.reviewedHandle))!;
        const { page, errors } = await open(width, `${prefix}/products/${st.reviewedHandle}`);
        expect((await page.locator(".product__price").textContent())?.trim()).toBe(price(product));
        const ld = await page.locator('script[type="application/ld+json"]').first().textContent();
        expect(JSON.parse(ld!).offers.priceCurrency).toBe("BRL");
        await shoot(page, `product${prefix.replace("/", "-")}-${width}.png`, { fullPage: true });
        const shifts = await page.evaluate(
          () => (window as unknown as { __shifts: { value: number; input: boolean }[] }).__shifts,
        );
        expect(shifts.filter((x) => !x.input).reduce((a, x) => a + x.value, 0)).toBeLessThanOrEqual(0.01);
        await page.goto(`${st.storefront.origin}${prefix}/collections/all`, { waitUntil: "networkidle" });
        const body = await page.locator("main").innerText();
        expect(body).not.toMatch(/\$\d/);
        expect(body).toContain(price(product));
        await shoot(page, `catalog${prefix.replace("/", "-")}-${width}.png`, { fullPage: true });
        expect(errors).toEqual([]);
        await page.context().close();
      });
    }
  }

  it("GIVEN the Portuguese account page THEN customers are named without their ids and order dates read in Portuguese", async () => {
    const { page, errors } = await open(375, "/pt-BR/account", ANA.id);
    await page.locator("order-reviews .rv-or-list").waitFor();
    const options = await page.locator("#login-as option").allTextContents();
    expect(options).toContain("Ana Souza");
    expect(options.join(" ")).not.toMatch(/#\d/);
    const dates = await page.locator("main time").allTextContents();
    expect(dates.length).toBeGreaterThan(0);
    for (const d of dates) expect(d).not.toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(dates).toContain("3 de nov. de 2026");
    await shoot(page, "account-pt-BR-375.png", { fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
