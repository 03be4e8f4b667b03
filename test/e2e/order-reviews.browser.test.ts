import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "../helpers/axe";
import { startStorefrontStack, type StorefrontStack } from "../helpers/storefront-stack";
import type { SimOrder } from "../../sandbox/simulated-store/orders";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// "Rate your order" in Chromium, on the local storefront's classic account pages: the demo
// customer sees their orders with what they rated, presses Rate (keyboard), rates inside the
// rating modal against the emulator's rating page, the modal closes on the page's message and the
// block shows the new rating; the order page shows that order; another customer's order is not
// theirs to see.

const shoot = shotsIn("orders");
const [ANA, BEN] = STOREFRONT_CUSTOMERS as [
  (typeof STOREFRONT_CUSTOMERS)[number],
  (typeof STOREFRONT_CUSTOMERS)[number],
];
let st: StorefrontStack;
let browser: Browser;
let twoProducts: SimOrder;
let oneProduct: SimOrder;
let bens: SimOrder;

beforeAll(async () => {
  st = await startStorefrontStack("order-reviews-browser", { PROXY_CACHE_MS: "0" });
  await st.placeOrder(ANA, [4], { at: new Date(Date.now() - 20 * 86_400_000) });
  oneProduct = await st.placeOrder(ANA, [3], { delivered: true, at: new Date(Date.now() - 10 * 86_400_000) });
  twoProducts = await st.placeOrder(ANA, [1, 2], { delivered: true });
  bens = await st.placeOrder(BEN, [5], { delivered: true });
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

async function open(width: number, path: string, customer = ANA.id): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  await context.addCookies([{ name: "local_storefront_customer", value: customer, url: st.storefront.origin }]);
  const page = await context.newPage();
  await page.goto(`${st.storefront.origin}${path}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return page;
}

const dialogOpen = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLDialogElement>("rating-modal dialog")?.open === true);
const skuOf = (o: SimOrder, line = 0) => o.lines[line]!.productId!.replace(/^gid:\/\/shopify\/Product\//, "");

describe("rate your order on the account page", () => {
  it("GIVEN the demo customer on their account page WHEN they press Rate by keyboard and rate inside the modal THEN it closes on the rating page's message and the block shows their rating", async () => {
    const page = await open(1280, "/account");
    await page.locator("order-reviews .rv-or-list").waitFor();
    expect(await page.locator("order-reviews .rv-or-order").count()).toBe(3);
    expect(await page.locator("order-reviews [data-rv-page-status]").textContent()).toBe(
      "3 products are waiting for your review.",
    );
    // The order not delivered yet says when it can be rated.
    expect(await page.locator("order-reviews .rv-or-item--waiting").textContent()).toContain(
      "You can rate it once your order arrives.",
    );
    await shoot(page, `account-desktop.png`, { fullPage: true });
    expect(await axeViolations(page, "order-reviews")).toEqual([]);

    const sku = skuOf(twoProducts, 1);
    const rate = page.locator(`order-reviews [data-rv-rate-order="${twoProducts.id}"][data-rv-rate-sku="${sku}"]`);
    await rate.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => dialogOpen(page)).toBe(true);
    const src = new URL((await page.locator("rating-modal iframe").getAttribute("src"))!);
    expect(src.pathname).toMatch(new RegExp(`/rate/acme/[^/]+/${twoProducts.id}$`));
    // The rating page focused on the product names it: the modal's own line does not repeat it.
    expect(await page.locator("rating-modal .rv-modal__product").isVisible()).toBe(false);
    expect(src.searchParams.get("sku")).toBe(sku);
    // The page behind does not turn into a new tab: the link's default is the modal's.
    expect(page.context().pages()).toHaveLength(1);
    const frame = page.frameLocator("rating-modal iframe");
    await frame.locator("form.rate").first().waitFor();
    await frame.locator('form.rate label[for$="-5"]').first().click();
    await frame.locator("form.rate textarea").first().fill("Lovely mug, rated from my account.");
    await frame.locator("form.rate button[type=submit]").first().click();
    await expect.poll(() => dialogOpen(page)).toBe(false);
    const reviewed = page.locator(`order-reviews #rv-order-${twoProducts.id} .rv-or-item--reviewed`);
    await expect.poll(() => reviewed.count()).toBe(1);
    expect(await reviewed.textContent()).toContain("Lovely mug, rated from my account.");
    expect(await page.locator("order-reviews [data-rv-page-status]").textContent()).toBe(
      "2 products are waiting for your review.",
    );
    // Focus is not lost with the link that went: it is on the new status line.
    expect(await page.evaluate(() => document.activeElement?.hasAttribute("data-rv-page-status"))).toBe(true);
    expect(st.s.emu.control.state("acme").reviews.filter((r) => r.orderId === String(twoProducts.id))).toMatchObject([
      { sku, rating: 5, verified: true },
    ]);
    await shoot(page, `account-rated-desktop.png`, { fullPage: true });
    await page.context().close();
  });

  it("GIVEN a phone THEN the history reads in one column and the order page shows that order's products to rate", async () => {
    const page = await open(375, "/pt-BR/account");
    await page.locator("order-reviews .rv-or-list").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shoot(page, `account-phone.png`, { fullPage: true });
    await page.locator(`a[href="/pt-BR/account/orders/${oneProduct.id}"]`).click();
    await page.waitForURL(`**/account/orders/${oneProduct.id}`);
    await page.locator("order-reviews .rv-or-list").waitFor();
    expect(await page.locator("order-reviews .rv-or-order").count()).toBe(1);
    expect(await page.locator("order-reviews .rv-or-item__rate").textContent()).toBe("Avaliar");
    expect(await page.locator("order-reviews .rv-or-item__rate").getAttribute("data-rv-rate-sku")).toBe(
      skuOf(oneProduct),
    );
    await shoot(page, `order-phone.png`, { fullPage: true });
    expect(await axeViolations(page, "order-reviews")).toEqual([]);
    await page.context().close();
  });

  it("GIVEN another customer's order page THEN it is not found, and their own history holds only their order", async () => {
    const page = await open(1280, `/account/orders/${twoProducts.id}`, BEN.id);
    expect(await page.locator("h1").textContent()).toBe("Page not found");
    await page.goto(`${st.storefront.origin}/account`, { waitUntil: "networkidle" });
    await blockScriptsRan(page);
    await page.locator("order-reviews .rv-or-list").waitFor();
    expect(await page.locator("order-reviews .rv-or-order").evaluateAll((els) => els.map((e) => e.id))).toEqual([
      `rv-order-${bens.id}`,
    ]);
    await page.context().close();
  });
});
