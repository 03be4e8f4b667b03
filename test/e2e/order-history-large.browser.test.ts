import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HISTORY_LINES_PER_ORDER } from "../../app/.server/shopify/shopper-documents";
import { startSync } from "../../app/.server/sync/start-sync";
import { placeAccountOrder } from "../../sandbox/simulated-store/order-story";
import type { SimOrder } from "../../sandbox/simulated-store/orders";
import type { RequestRecord } from "../../sandbox/simulated-store/server";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";
import { axeViolations } from "../helpers/axe";
import { eventually } from "../helpers/contexts";
import { shotsIn } from "../helpers/shots";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";

// "Rate your orders" in Chromium for a customer Shopify's cost limit would have shut out: 120
// delivered orders of 50 products each, on a Standard store's bucket (2,000 points, 100 a second).
// One query for 20 orders with all their lines would request 5,083 points (refused over 1,000), and
// 20 follow-up queries a page kept a Standard store throttled for half a minute a view. The page now
// makes one query a view (each order's first lines), and an order's other products come when the
// shopper asks ("Show all 50 products": one query for that order).

const shoot = shotsIn("order-history-large");
const [ANA] = STOREFRONT_CUSTOMERS as [(typeof STOREFRONT_CUSTOMERS)[number]];
const ORDERS = 120;
const LINES = 50;
let st: StorefrontStack;
let browser: Browser;
const placed: SimOrder[] = [];

beforeAll(async () => {
  st = await startStorefrontStack(
    "order-history-large",
    { PROXY_IP_LIMIT_PER_MIN: "1000", PROXY_SHOP_LIMIT_PER_MIN: "1000", PROXY_CACHE_MS: "0" },
    60,
  );
  const start = Date.now() - 40 * 86_400_000;
  for (let i = 0; i < ORDERS; i++) {
    // 50 of the 60 products, a different window each order.
    const products = Array.from({ length: LINES }, (_, k) => (i + k) % 60);
    const [change] = placeAccountOrder(st.book, ANA, products, {
      delivered: true,
      at: new Date(start + i * 3_600_000),
    });
    placed.push(st.book.get(change!.order.id)!);
  }
  // The service learns of them as a shop's recent orders are imported when it connects.
  const shop = await st.s.web.shops.get(STOREFRONT_SHOP);
  const { run } = await startSync({ db: st.s.web.db, queues: st.s.web.queues }, shop.id, "orders");
  await eventually(
    async () => (await st.s.web.db.syncRun.findUnique({ where: { id: run.id } }))?.status,
    (status) => status === "completed",
    120_000,
  );
  await st.s.idle();
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

/** The account page, with what the console said and every answer of the app proxy's orders route. */
async function open(width: number): Promise<{ page: Page; console: string[]; answers: number[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  await context.addCookies([{ name: "local_storefront_customer", value: ANA.id, url: st.storefront.origin }]);
  const page = await context.newPage();
  const console: string[] = [];
  const answers: number[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") console.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => console.push(`pageerror: ${e.message}`));
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/apps/reviews/orders") answers.push(r.status());
  });
  await page.goto(`${st.storefront.origin}/account`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return { page, console, answers };
}

/** What the local storefront reads to draw the page (Shopify's own renderer, not the app). */
const STOREFRONT_READS = new Set(["AccountOrders", "CurrentAppInstallation", "ShopMoneyFormat"]);
/** What the app asked Shopify since `from`. */
const appQueries = (from: number): RequestRecord[] =>
  st.store.requests.slice(from).filter((r) => !STOREFRONT_READS.has(r.operationName ?? "") && !r.throttled);
const orders = (page: Page) => page.locator("order-reviews .rv-or-order");
const sku = (gid: string) => gid.replace(/^gid:\/\/shopify\/Product\//, "");

describe("the order history of a customer with 120 orders of 50 products, on a Standard store", () => {
  it("GIVEN 120 delivered orders of 50 lines THEN every page answers 200 with its orders, their first products and Rate, one Shopify query a view; Show all brings an order's 50 products with one more", async () => {
    const from = st.store.requests.length;
    const { page, console, answers } = await open(1280);
    await orders(page).first().waitFor();
    const newestFirst = [...placed].reverse();
    const perView: string[][] = [];
    let mark = from;
    for (let view = 1; ; view++) {
      await expect.poll(() => orders(page).count()).toBe(20 * view);
      perView.push(appQueries(mark).map((r) => r.operationName ?? ""));
      mark = st.store.requests.length;
      const more = page.locator("order-reviews [data-rv-more]");
      if (!(await more.count())) break;
      await more.click();
    }
    expect(answers).toEqual(Array(ORDERS / 20).fill(200));
    // Each view: one CustomerOrders (the first also learns who the customer is, then kept).
    expect(perView.map((names) => names.filter((n) => n !== "CustomerIdentity"))).toEqual(
      Array(ORDERS / 20).fill(["CustomerOrders"]),
    );
    expect(perView.flat().filter((n) => n === "CustomerIdentity").length).toBeLessThanOrEqual(1);

    // Newest first, each with its first products, each product with Rate, and Show all for the rest.
    const shown = await orders(page).evaluateAll((els) =>
      els.map((e) => ({
        id: e.id.replace("rv-order-", ""),
        items: e.querySelectorAll(".rv-or-item").length,
        rate: [...e.querySelectorAll<HTMLElement>("[data-rv-rate-sku]")].map((a) => a.dataset.rvRateSku),
        all: e.querySelector("[data-rv-all]")?.textContent?.trim(),
      })),
    );
    expect(shown.map((o) => o.id)).toEqual(newestFirst.map((o) => String(o.id)));
    newestFirst.forEach((o, i) =>
      expect(shown[i]).toEqual({
        id: String(o.id),
        items: HISTORY_LINES_PER_ORDER,
        rate: o.lines.slice(0, HISTORY_LINES_PER_ORDER).map((l) => sku(l.productId!)),
        all: "Show all 50 products",
      }),
    );
    await shoot(page, "history-desktop.png");

    // Show all, by keyboard, on the 21st order (the second page's first): its 50 products with Rate.
    const order = newestFirst[20]!;
    const before = st.store.requests.length;
    await page.locator(`#rv-order-${order.id} [data-rv-all]`).focus();
    await page.keyboard.press("Enter");
    const items = page.locator(`#rv-order-${order.id} .rv-or-item`);
    await expect.poll(() => items.count()).toBe(LINES);
    expect(
      await page
        .locator(`#rv-order-${order.id} [data-rv-rate-sku]`)
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.rvRateSku)),
    ).toEqual(order.lines.map((l) => sku(l.productId!)));
    expect(await page.locator(`#rv-order-${order.id} [data-rv-all]`).count()).toBe(0);
    // Focus goes on to the first product that was not shown.
    expect(
      await page.evaluate(() => document.activeElement?.closest(".rv-or-item")?.previousElementSibling !== null),
    ).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      await items.nth(HISTORY_LINES_PER_ORDER).locator(".rv-or-item__title").textContent(),
    );
    expect(appQueries(before).map((r) => r.operationName)).toEqual(["CustomerOrder"]);
    expect(answers).toEqual(Array(ORDERS / 20 + 1).fill(200));
    await shoot(page.locator(`#rv-order-${order.id}`), "order-shown-all-desktop.png");

    // What Shopify saw: every request within the limit, none refused.
    const calls = st.store.requests.slice(from);
    expect(Math.max(...calls.map((r) => r.requestedCost ?? Infinity))).toBeLessThanOrEqual(1_000);
    expect(calls.filter((r) => r.status !== 200)).toEqual([]);
    expect(console).toEqual([]);
    await page.context().close();
  }, 300_000);

  it("GIVEN a phone THEN the history reads in one column, Show all opens an order in place, and the block passes axe", async () => {
    const { page, console } = await open(375);
    await orders(page).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const first = page.locator("order-reviews .rv-or-order").first();
    await shoot(first, "history-phone.png");
    await first.locator("[data-rv-all]").click();
    await expect.poll(() => first.locator(".rv-or-item").count()).toBe(LINES);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shoot(page, "history-phone-all.png");
    expect(await axeViolations(page, "order-reviews")).toEqual([]);
    expect(console).toEqual([]);
    await page.context().close();
  }, 300_000);
});
