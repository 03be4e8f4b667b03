import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { ASSET_BASE } from "../../sandbox/local-storefront/server";

// When the rating modal embed's script loads, in Chromium through the local storefront (the embed
// switched on in every page): only where a modal will open, a rating link in the address or a click
// on a Rate button. A collection page with card stars loads no script of the app at all.

let st: StorefrontStack;
let browser: Browser;
let order: { orderId: string; token: string; sku: string };

beforeAll(async () => {
  st = await startStorefrontStack("rating-modal-loading", { PROXY_CACHE_MS: "0" });
  const sku = st.productIds[1];
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  await client.admin.createOrderV2({
    orderId: "#5001",
    email: "buyer.5001@example.net",
    name: "Lea Loader",
    status: "delivered",
    items: [{ productId: sku, sku }],
  });
  const found = await client.storefront.findOrder({ orderId: "#5001", email: "buyer.5001@example.net" });
  order = { orderId: "#5001", token: found.verificationTokenId, sku };
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

/** The page, and every script of the app's extension it fetched (by file name). */
async function visit(path: string): Promise<{ page: Page; appScripts: string[] }> {
  const context = await browser.newContext({ userAgent: USER_AGENT });
  const page = await context.newPage();
  const appScripts: string[] = [];
  page.on("requestfinished", (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith(`${ASSET_BASE}/`) && pathname.endsWith(".js")) appScripts.push(pathname.split("/").pop()!);
  });
  await page.goto(`${st.storefront.origin}${path}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return { page, appScripts };
}

const dialogOpen = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLDialogElement>("rating-modal dialog")?.open === true);

describe("the rating modal's script", () => {
  it("GIVEN a collection page with card stars and the modal embed on THEN it loads no script of the app", async () => {
    const { page, appScripts } = await visit("/collections/all");
    expect(await page.locator("rating-modal").count()).toBe(1);
    expect(await page.getByRole("img", { name: /out of 5 stars/ }).count()).toBeGreaterThan(0);
    expect(appScripts).toEqual([]);
    await page.context().close();
  });

  it("GIVEN a product page with a rating link THEN the script loads and the modal opens", async () => {
    const { orderId, token, sku } = order;
    const query = `?rv-rate-order=${encodeURIComponent(orderId)}&rv-rate-token=${token}&rv-rate-sku=${sku}`;
    const { page, appScripts } = await visit(`/products/${st.reviewedHandle}${query}`);
    await expect.poll(() => dialogOpen(page)).toBe(true);
    expect(appScripts).toContain("rating-modal.js");
    await page.context().close();
  });

  it("GIVEN a page without a rating link WHEN a Rate button is clicked THEN the script loads only then and the modal opens", async () => {
    const { orderId, token } = order;
    const { page, appScripts } = await visit("/collections/all");
    await page.evaluate(
      ({ orderId, token }) => {
        const b = Object.assign(document.createElement("button"), { type: "button", id: "rate", textContent: "Rate" });
        Object.assign(b.dataset, { rvRateOrder: orderId, rvRateToken: token });
        document.body.prepend(b);
      },
      { orderId, token },
    );
    expect(appScripts).toEqual([]);
    await page.locator("#rate").click();
    await expect.poll(() => dialogOpen(page)).toBe(true);
    // The modal's own script, and what it fetches on its first opening (the product line).
    expect(appScripts[0]).toBe("rating-modal.js");
    await page.context().close();
  });
});
