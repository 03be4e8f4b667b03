import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// What a shopper sees that the service or Shopify names by a key: a buyer who reviewed a product
// already is told so in their language (an error, what they gave, a link to where their review is
// kept), not "could not be accepted"; the store filter names this store as its shoppers know it, not
// by the service's customer key; photo placeholders do not print file keys; the rating modal names
// the order once, as its buyer knows it.

const shoot = shotsIn("already-reviewed");
let st: StorefrontStack;
let browser: Browser;
let sku: string;
let token: string;
const consoleErrors = new WeakMap<Page, string[]>();

/** Closes the page's context after checking the browser console stayed clean. */
async function done(page: Page) {
  expect((consoleErrors.get(page) ?? []).join("\n")).toBe("");
  await page.context().close();
}

beforeAll(async () => {
  st = await startStorefrontStack("already-reviewed", { PROXY_CACHE_MS: "0" });
  sku = st.productIds[0];
  await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { orders: { orderIdSource: "name" } });
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  await client.admin.createOrderV2({
    orderId: "#3003",
    email: "twice@example.net",
    name: "Tess Twice",
    status: "delivered",
    items: [{ productId: sku, sku }],
  });
  token = (await client.storefront.findOrder({ orderId: "#3003", email: "twice@example.net" })).verificationTokenId;
  // Reviewed elsewhere first (the service's rating page, the Shop app step of the demo).
  await client.storefront.submitReview(sku, {
    verificationTokenId: token,
    orderId: "#3003",
    rating: 4,
    text: "First.",
  });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

async function open(width: number, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  const page = await context.newPage();
  const errors: string[] = [];
  // Chromium logs every non-2xx answer (the 409 here is the point) and an image it cannot reach
  // offline (the service's rating page asks Shopify's CDN): scripts' errors are what must not be.
  page.on(
    "console",
    (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()),
  );
  page.on("pageerror", (e) => errors.push(e.message));
  consoleErrors.set(page, errors);
  await page.goto(`${st.storefront.origin}${path}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return page;
}

const COPY = {
  en: {
    prefix: "",
    write: "Write a review",
    said: "You have already reviewed this product.",
    gave: "4 stars",
    link: "See your review",
  },
  "pt-BR": {
    prefix: "/pt-BR",
    write: "Escrever uma avaliação",
    said: "Você já avaliou este produto.",
    gave: "4 estrelas",
    link: "Ver sua avaliação",
  },
} as const;

describe("a shopper who reviewed a product already", () => {
  for (const [locale, copy] of Object.entries(COPY)) {
    for (const width of [375, 1280]) {
      it(`GIVEN a guest's order whose product was reviewed WHEN they send another in ${locale} at ${width} px THEN they are told so as an error, with their rating and a link to the reviews`, async () => {
        const page = await open(width, `${copy.prefix}/products/${st.reviewedHandle}`);
        await page.getByRole("button", { name: copy.write }).click();
        await page.locator("review-form").waitFor();
        await page.locator(".rv-rate__star").nth(2).click();
        await page.locator("review-form textarea[name=text]").fill("Second.");
        await page.locator("review-form input[name=orderNumber]").fill("3003");
        await page.locator("review-form input[name=email]").fill("twice@example.net");
        await page.locator("review-form button[type=submit]").click();
        const status = page.locator("review-form [data-rv-form-status]");
        await expect.poll(() => status.getAttribute("data-tone")).toBe("error");
        const text = (await status.textContent()) ?? "";
        expect(text).toContain(copy.said);
        expect(text).toContain(copy.gave);
        const link = status.getByRole("link", { name: copy.link });
        expect(await link.getAttribute("href")).toMatch(/^#rv-reviews-/);
        expect(await page.evaluate((el) => getComputedStyle(el!).color, await status.elementHandle())).toBe(
          "rgb(179, 38, 30)",
        );
        await shoot(page, `guest-${locale}-${width}.png`, { fullPage: true });
        expect(st.s.emu.control.state("acme").reviews.filter((r) => r.orderId === "#3003")).toHaveLength(1);
        await done(page);
      });
    }
  }

  it("GIVEN a review link for a product already reviewed WHEN the buyer sends THEN the form says so as an error, in Portuguese", async () => {
    const page = await open(
      1280,
      `/pt-BR/products/${st.reviewedHandle}?rv-order=${encodeURIComponent("#3003")}&rv-token=${token}`,
    );
    await page.locator("review-form").waitFor();
    await page.locator(".rv-rate__star").nth(4).click();
    await page.locator("review-form button[type=submit]").click();
    const status = page.locator("review-form [data-rv-form-status]");
    await expect.poll(() => status.getAttribute("data-tone")).toBe("error");
    expect(await status.textContent()).toContain(COPY["pt-BR"].said);
    expect(await status.getByRole("link", { name: COPY["pt-BR"].link }).count()).toBe(1);
    await done(page);
  });
});

describe("names, not keys", () => {
  it("GIVEN native and syndicated reviews WHEN the store filter is shown THEN this store is listed by its name, not the service's key", async () => {
    const page = await open(1280, `/products/${st.reviewedHandle}`);
    const shopName = (await page.locator(".site-header__name").textContent())!.trim();
    const options = await page.locator("select[name=sourceStore] option").allTextContents();
    expect(options.length).toBeGreaterThan(2);
    expect(options).toContain(shopName);
    expect(options).not.toContain("acme");
    await done(page);
  });

  it("GIVEN reviews with photos WHEN their thumbnails load THEN no file key is printed in them", async () => {
    const page = await open(1280, `/products/${st.reviewedHandle}`);
    const thumbs = await page
      .locator("[data-rv-media=image] img")
      .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
    expect(thumbs.length).toBeGreaterThan(0);
    for (const src of thumbs.slice(0, 3)) {
      const svg = await (await fetch(src)).text();
      expect(svg).not.toMatch(/\.svg|seed|[0-9a-f]{12}/);
    }
    await done(page);
  });

  it("GIVEN a rating link naming the order WHEN the modal opens THEN the order is named once, by its name, and the frame has no second heading with the id", async () => {
    const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
    await client.admin.createOrderV2({
      orderId: "5900000000042",
      email: "modal@example.net",
      name: "Mo Dal",
      status: "delivered",
      items: [{ productId: st.productIds[1], sku: st.productIds[1] }],
    });
    const t = (await client.storefront.findOrder({ orderId: "5900000000042", email: "modal@example.net" }))
      .verificationTokenId;
    const page = await open(
      1280,
      `/collections/all?rv-rate-order=5900000000042&rv-rate-token=${t}&rv-rate-name=${encodeURIComponent("#1042")}&rv-rate-product=Tote`,
    );
    await page.getByRole("dialog", { name: "Rate your order #1042" }).waitFor();
    const frame = page.frameLocator("rating-modal iframe");
    await frame.locator("form.rate").first().waitFor();
    expect(await frame.locator("h1").count()).toBe(0);
    expect(await frame.locator("body").innerText()).not.toContain("5900000000042");
    await frame.locator(".product .ph").first().waitFor(); // Shopify's CDN is out of reach offline
    const broken = await frame
      .locator(".product img")
      .evaluateAll(
        (imgs) =>
          imgs.filter((i) => (i as HTMLImageElement).getAttribute("src") && !(i as HTMLImageElement).naturalWidth)
            .length,
      );
    expect(broken).toBe(0);
    await shoot(page, "modal-named.png");
    await done(page);
  });
});
