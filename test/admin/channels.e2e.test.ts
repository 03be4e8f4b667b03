import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, layoutShift, screenshots, type AdminTab } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { signedProxyRequest } from "../helpers/app-proxy";
import { createProductMirror } from "../../app/.server/catalog/product-mirror.repository";
import { catalogPayloadHash } from "../../app/.server/mapping/product.mapper";
import { PRODUCTS } from "../../app/.server/google/feed.testkit";
import { GOOGLE_MIN_REVIEWS, LEFT_OUT_PAGE_SIZE } from "../../app/.server/admin/google-channel";
import { en } from "../../app/shared/i18n/en";
import { ptBR } from "../../app/shared/i18n/pt-BR";

// The "Google Shopping & Shop app" page in Chromium: the feed's address for Merchant Center, then,
// once the feed route has answered a real fetch over HTTP, what the feed held against Google's
// minimum and the products it left out, each with the Shopify admin page that fixes it, paged.

const SHOP = "channels-admin.myshopify.com";
const DOMAIN = "https://lantern-fjord.example";
let a: AdminStack;
let skus: string[];

beforeAll(async () => {
  a = await startAdminStack("admin-channels", SHOP, { products: 4 });
  await a.s.connect(SHOP, "acme");
  // More products left out than one page lists.
  skus = a.s.emu.control.seed({ customer: "acme", products: LEFT_OUT_PAGE_SIZE + 6 }).products;
  await a.s.web.shops.setPrimaryDomain(SHOP, DOMAIN);
  const shop = await a.s.web.shops.get(SHOP);
  const mirror = createProductMirror(a.s.web.db);
  // What the catalog sync would hold: two products Google can match, one without an identifier,
  // one the service refused (Shopify's id known, no payload); the rest never synced.
  const accepted = [PRODUCTS.tee, PRODUCTS.sensor, PRODUCTS.giftWrap].map((p, i) => {
    const product = { ...p, sku: skus[i]! } as typeof PRODUCTS.tee & { name: string; categories: string[] };
    return { productId: `880000000000${i}`, sku: skus[i]!, hash: catalogPayloadHash(product), product };
  });
  await mirror.recordAccepted(shop.id, accepted);
  await mirror.recordRejected(shop.id, [
    { item: { productId: "8800000000009", sku: skus[3]! } as never, error: "refused by the service" },
  ]);
}, 180_000);
afterAll(async () => {
  await a?.close();
});

/** Merchant Center's scheduled fetch, through the app proxy's signature, to the app's served build. */
async function merchantCenterFetch(): Promise<string> {
  const signed = signedProxyRequest({ shop: SHOP, path: "/google-feed.xml", appUrl: a.server.url });
  const res = await fetch(signed.url, { headers: signed.headers });
  const xml = await res.text();
  expect(res.status, xml.slice(0, 200)).toBe(200);
  return xml;
}

/** A tab that records what the browser console and the page say went wrong. */
async function openWatched(width = 1280): Promise<AdminTab & { problems: string[] }> {
  const tab = await a.open({ width });
  const problems: string[] = [];
  tab.page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  tab.page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  return Object.assign(tab, { problems });
}

describe("Google Shopping & Shop app page", () => {
  it("GIVEN no fetch yet THEN the feed's address is there to paste, and the page says nothing was fetched", async () => {
    const tab = await openWatched();
    const { page } = tab;
    await tab.goto("/app/channels");
    await page.getByRole("heading", { name: en["channels.title"] }).waitFor();
    expect(await page.getByLabel(en["channels.google.url"]).inputValue()).toBe(
      `${DOMAIN}/apps/reviews/google-feed.xml`,
    );
    await page.getByText(en["channels.google.none"]).waitFor();
    expect(await page.getByRole("heading", { name: en["channels.leftOut.title"] }).count()).toBe(0);
    // The Shop app section, before any back-sync asked Shopify about the program.
    await page.getByRole("heading", { name: en["shopApp.title"] }).waitFor();
    await page.getByText(en["shopApp.program.unknown"]).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(tab.problems).toEqual([]);
  }, 90_000);

  it("GIVEN Merchant Center fetched the feed THEN the page shows its count against Google's minimum, when it was built, and the products left out with their fix, paged", async () => {
    const xml = await merchantCenterFetch();
    const inFeed = (xml.match(/<review>/g) ?? []).length;
    expect(inFeed).toBeGreaterThan(0);
    const tab = await openWatched();
    const { page } = tab;
    await tab.goto("/app/channels");
    await page.getByRole("heading", { name: en["channels.leftOut.title"] }).waitFor();

    // The count and Google's minimum, and what they mean.
    const figure = (label: string) => page.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd");
    expect(await figure(en["channels.google.included"]).textContent()).toBe(String(inFeed));
    expect(await figure(en["channels.google.minimum"]).textContent()).toBe(String(GOOGLE_MIN_REVIEWS));
    expect(await figure(en["channels.google.builtAt"]).textContent()).not.toBe(en["channels.google.never"]);
    const verdict =
      inFeed < GOOGLE_MIN_REVIEWS
        ? en["channels.google.belowMinimum"]
            .replace("{minimum}", String(GOOGLE_MIN_REVIEWS))
            .replace("{count}", String(inFeed))
        : en["channels.google.ok"].replace("{minimum}", String(GOOGLE_MIN_REVIEWS));
    await page.getByText(verdict).waitFor();

    // Every product with a published review but the two Google can match (a product's own reason
    // is listed even when its only review also lacks text), in catalog-key order, a page at a time.
    const published = new Set(
      a.s.emu.control
        .state("acme")
        .reviews.filter((r) => r.status === "published")
        .map((r) => r.sku),
    );
    const leftOut = skus.filter((k, i) => i >= 2 && published.has(k)).sort();
    expect(leftOut.length).toBeGreaterThan(LEFT_OUT_PAGE_SIZE);
    await page.getByText(en["common.total"].replace("{count}", String(leftOut.length))).waitFor();
    const rows = page.locator(".Polaris-IndexTable__TableRow");
    expect(await rows.count()).toBe(LEFT_OUT_PAGE_SIZE);

    // The product without an identifier: its title, its reason, and its page in the Shopify admin.
    const giftWrap = rows.filter({ hasText: PRODUCTS.giftWrap.name! });
    await giftWrap.getByText(en["googleFeed.reason.no_product_identifier"]).waitFor();
    const edit = giftWrap.getByRole("link", { name: `Edit in Shopify: ${PRODUCTS.giftWrap.name}` });
    expect(await edit.getAttribute("href")).toBe("shopify://admin/products/8800000000002");
    expect(await edit.getAttribute("target")).toBe("_top");
    // The mirror cannot name the next two (no payload, no row): the service's name for each, never
    // the bare catalog key.
    const serviceName = (sku: string) => a.s.emu.control.state("acme").products.find((p) => p.sku === sku)!.name;
    // Refused by the service: not in the catalog, but Shopify's id is known.
    const refused = rows.filter({ hasText: serviceName(skus[3]!) });
    await refused.getByText(en["googleFeed.reason.product_not_in_catalog"]).waitFor();
    expect(await refused.getByRole("link").getAttribute("href")).toBe("shopify://admin/products/8800000000009");
    // Never synced: no Shopify id, so no link.
    const unknown = skus.slice(4).find((k) => leftOut.slice(0, LEFT_OUT_PAGE_SIZE).includes(k))!;
    const never = rows.filter({ hasText: serviceName(unknown) });
    await never.getByText(en["channels.leftOut.noLink"]).waitFor();
    expect(await never.getByRole("link").count()).toBe(0);
    const firstPage = leftOut.slice(0, LEFT_OUT_PAGE_SIZE);
    const text = await page.locator(".Polaris-IndexTable__Table").innerText();
    expect(firstPage.filter((k) => text.includes(k))).toEqual([]);

    // Nothing moved while the page settled (CLS, a lab figure), nothing went wrong in the console.
    const { cls, moved } = await layoutShift(page);
    expect(cls, moved.join("\n")).toBeLessThanOrEqual(0.01);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "channels");

    await page.getByRole("button", { name: /next/i }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => rows.count()).toBe(leftOut.length - LEFT_OUT_PAGE_SIZE);
    expect(await rows.first().textContent()).toContain(serviceName(leftOut[LEFT_OUT_PAGE_SIZE]!));
    await screenshots(page, "channels-page-2");
    expect(tab.problems).toEqual([]);
  }, 120_000);

  it("GIVEN a phone THEN each product left out reads as one block, its fix link reachable", async () => {
    const tab = await openWatched(375);
    const { page } = tab;
    await tab.goto("/app/channels");
    const link = page.getByRole("link", { name: `Edit in Shopify: ${PRODUCTS.giftWrap.name}` });
    await link.waitFor();
    // The table turns into blocks once it knows the screen's width (after hydration): asked until then.
    await expect
      .poll(async () => {
        const box = await link.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= 375;
      })
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The table turned into blocks without moving what was shown (CLS, a lab figure).
    const { cls, moved } = await layoutShift(page);
    expect(cls, moved.join("\n")).toBeLessThanOrEqual(0.01);
    expect(await axeViolations(page)).toEqual([]);
    expect(tab.problems).toEqual([]);
  }, 90_000);

  it("GIVEN the merchant's admin in Portuguese THEN the page speaks it, and the nav names it", async () => {
    const tab = await openWatched();
    const { page } = tab;
    await tab.goto("/app/channels", { locale: "pt-BR" });
    await page.getByRole("heading", { name: ptBR["channels.title"] }).waitFor();
    await page.getByRole("heading", { name: ptBR["channels.leftOut.title"] }).waitFor();
    expect(await page.getByText(ptBR["googleFeed.reason.no_product_identifier"]).count()).toBeGreaterThan(0);
    expect(await page.locator('ui-nav-menu a[href="/app/channels"]').textContent()).toBe(ptBR["nav.channels"]);
    expect(tab.problems).toEqual([]);
  }, 90_000);
});
