import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, type StorefrontStack } from "../helpers/storefront-stack";
import { axeViolations } from "../helpers/axe";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// Store reviews and the top-rated badge through the local storefront against the emulator: the
// badge and the carousel from the shop's app-data metafield (no request), the list paged and sorted
// by the app through the proxy, no rating markup for the store, and the badge on exactly the
// service's top-rated products, on their pages and on cards.

const shoot = shotsIn("store");
let st: StorefrontStack;
let browser: Browser;

beforeAll(async () => {
  st = await startStorefrontStack("store-reviews", { PROXY_CACHE_MS: "0" });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

const published = () => st.s.emu.control.state("acme").storeReviews.filter((r) => r.status === "published");

async function open(path: string, width: number): Promise<{ page: Page; proxyCalls: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, userAgent: USER_AGENT });
  const page = await context.newPage();
  const proxyCalls: string[] = [];
  page.on("request", (r) => new URL(r.url()).pathname.startsWith("/apps/") && proxyCalls.push(r.url()));
  await page.goto(`${st.storefront.origin}${path}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return { page, proxyCalls };
}

describe("store reviews", () => {
  it("GIVEN the app proxy THEN every published store review comes once over the pages, in the asked order, and a bad sort is refused", async () => {
    const get = async (q: string) => {
      const res = await fetch(`${st.storefront.origin}/apps/reviews/store-reviews?${q}`);
      return { status: res.status, html: await res.text() };
    };
    const stars = (html: string) =>
      [...html.matchAll(/aria-label="(\d)(?:[.,]0)? out of 5 stars"/g)].map((m) => Number(m[1]));
    const pages = [
      await get("sort=highest&page=1&pageSize=5"),
      await get("sort=highest&page=2&pageSize=5"),
      await get("sort=highest&page=3&pageSize=5"),
    ];
    const ratings = pages.flatMap((p) => stars(p.html));
    expect(ratings).toHaveLength(published().length);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(pages[0]!.html).toContain(`${published().length} store reviews`);
    expect(pages.map((p) => p.html).join("")).not.toContain("Not yet moderated.");
    expect(stars((await get("sort=lowest&page=1&pageSize=5")).html)[0]).toBe(1);
    expect((await get("sort=rating")).status).toBe(400);
  });

  it("GIVEN the store reviews page THEN badge and carousel are there without a request, the list arrives through the proxy and sorts, and nothing marks the store up as rated", async () => {
    for (const width of [1280, 375]) {
      const { page, proxyCalls } = await open("/pages/store-reviews", width);
      const count = published().length;
      expect(await page.locator(".rv-store-badge").textContent()).toContain(`${count} store reviews`);
      expect(await page.locator(".rv-carousel__item").count()).toBe(Math.min(10, count));
      await page.locator("store-reviews").scrollIntoViewIfNeeded();
      await expect.poll(() => page.locator("store-reviews .rv-sr-item").count()).toBe(10);
      expect(proxyCalls.every((u) => new URL(u).pathname === "/apps/reviews/store-reviews")).toBe(true);
      await shoot(page, `store-reviews-${width}.png`, { fullPage: true });
      await page.locator("[data-rv-sr-sort]").selectOption("lowest");
      await expect.poll(() => page.locator("store-reviews [data-rv-page]").getAttribute("data-sort")).toBe("lowest");
      expect(await page.locator("store-reviews .rv-sr-item [role=img]").first().getAttribute("aria-label")).toMatch(
        /^1(\.0)? out of 5 stars/,
      );
      expect(await page.locator('script[type="application/ld+json"]').count()).toBe(0);
      expect(await axeViolations(page, "main")).toEqual([]);
      await page.context().close();
    }
  });
});

describe("the top-rated badge", () => {
  it("GIVEN the service's top-rated list THEN its products show the badge on their pages and cards, and no other product does", async () => {
    const top = st.s.emu.control.state("acme").settings.topRated;
    expect(top.skus.length).toBeGreaterThan(0);
    for (const id of st.productIds.slice(0, 6)) {
      const { page } = await open(`/products/${st.store.product(id)!.handle}`, 1280);
      expect(await page.locator(".rv-top-rated").count(), id).toBe(top.skus.includes(id) ? 1 : 0);
      if (top.skus.includes(id)) {
        expect(await page.locator(".rv-top-rated").textContent()).toBe(top.badgeLabel);
        await shoot(page.locator(".product__info"), `top-rated-product.png`);
      }
      await page.context().close();
    }
    const { page } = await open("/collections/all", 375);
    const cardsWithBadge = await page
      .locator(".card")
      .evaluateAll((cards) =>
        cards.filter((c) => c.querySelector(".rv-top-rated")).map((c) => c.querySelector("a")!.getAttribute("href")),
      );
    expect(cardsWithBadge.length).toBe(top.skus.filter((id) => st.productIds.slice(0, 12).includes(id)).length);
    await shoot(page, `collection-phone.png`, { fullPage: true });
    expect(await axeViolations(page, "main")).toEqual([]);
    await page.context().close();
  });
});
