import "./test/helpers/setup-env";
import { launchChromium, USER_AGENT } from "./test/theme/browser";
const browser = await launchChromium();
for (const width of [1280, 375]) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  const page = await ctx.newPage();
  await page.goto("http://127.0.0.1:8789/account/login-as?customer=7001&return=%2Faccount", { waitUntil: "networkidle" });
  await page.locator("order-reviews .rv-or-list").waitFor();
  await page.screenshot({ path: `/work/shots/orders/devlocal-account-${width}.png`, fullPage: true });
  if (width === 1280) {
    await page.locator("order-reviews [data-rv-rate-token]").first().click();
    const frame = page.frameLocator("rating-modal iframe");
    await frame.locator("form.rate").first().waitFor();
    await page.screenshot({ path: `/work/shots/orders/devlocal-modal-${width}.png` });
    await frame.locator('form.rate label[for$="-4"]').first().click();
    await frame.locator("form.rate textarea").first().fill("Rated from the dev:local account page.");
    await frame.locator("form.rate button[type=submit]").first().click();
    await page.waitForFunction(() => document.querySelector<HTMLDialogElement>("rating-modal dialog")?.open === false);
    await page.waitForFunction(() => document.querySelectorAll("order-reviews .rv-or-item--reviewed").length === 1);
    await page.screenshot({ path: `/work/shots/orders/devlocal-after-${width}.png`, fullPage: true });
  }
  await ctx.close();
}
await browser.close();
