import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import type { SimOrder } from "../../sandbox/simulated-store/orders";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// The rating modal and the account's "Rate your orders" ask the app proxy's pre-check before they
// frame the service's rating page: a buyer who reviewed the product already is told so in the
// shop's language (not the frame's untranslated "Already reviewed"), with their stars and a link
// to their review; the order and product are named by Shopify, once. And a logged-in customer who
// reviewed a product elsewhere while its page was open is told the same by the product's form.

const shoot = shotsIn("rating-modal-reviewed");
const [ANA] = STOREFRONT_CUSTOMERS as [(typeof STOREFRONT_CUSTOMERS)[number]];
let st: StorefrontStack;
let browser: Browser;
let linked: SimOrder; // reviewed before its rating link is opened
/** Per language: reviewed while the account page is open. */
const fresh: Record<string, SimOrder> = {};
/** Per width: reviewed while the product page is open. */
const formOrders: Record<number, SimOrder> = {};
const consoleErrors = new WeakMap<Page, string[]>();

const skuOf = (o: SimOrder) => o.lines[0]!.productId!.replace(/^gid:\/\/shopify\/Product\//, "");

/** The service's token for an order, then a review through it, as the service's own page or the Shop app would send. */
async function reviewElsewhere(order: SimOrder, rating: number) {
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  const { verificationTokenId } = await client.storefront.findOrder({ orderId: String(order.id), email: ANA.email });
  await client.storefront.submitReview(skuOf(order), {
    verificationTokenId,
    orderId: String(order.id),
    rating,
    text: "Reviewed elsewhere first.",
  });
  return verificationTokenId;
}

beforeAll(async () => {
  st = await startStorefrontStack("rating-modal-reviewed", { PROXY_CACHE_MS: "0" });
  linked = await st.placeOrder(ANA, [1], { delivered: true });
  fresh.en = await st.placeOrder(ANA, [2], { delivered: true });
  fresh["pt-BR"] = await st.placeOrder(ANA, [3], { delivered: true });
  formOrders[375] = await st.placeOrder(ANA, [4], { delivered: true });
  formOrders[1280] = await st.placeOrder(ANA, [5], { delivered: true });
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

async function open(width: number, path: string, customer: string | null): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  if (customer)
    await context.addCookies([{ name: "local_storefront_customer", value: customer, url: st.storefront.origin }]);
  const page = await context.newPage();
  const errors: string[] = [];
  // Chromium logs every non-2xx answer (the form's 409 is the point); scripts' errors must not be.
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

async function done(page: Page) {
  expect((consoleErrors.get(page) ?? []).join("\n")).toBe("");
  await page.context().close();
}

const COPY = {
  en: {
    prefix: "",
    said: "You have already reviewed this product.",
    gave: "4 stars",
    link: "See your review",
    title: "Rate your order",
  },
  "pt-BR": {
    prefix: "/pt-BR",
    said: "Você já avaliou este produto.",
    gave: "4 estrelas",
    link: "Ver sua avaliação",
    title: "Avalie seu pedido",
  },
} as const;

describe("the rating modal for a product reviewed already", () => {
  let token = "";
  beforeAll(async () => {
    token = await reviewElsewhere(linked, 4);
  });

  for (const [locale, copy] of Object.entries(COPY)) {
    for (const width of [375, 1280]) {
      it(`GIVEN a guest's rating link for a reviewed product WHEN it opens in ${locale} at ${width} px THEN the modal says so in ${locale} with their stars and a link to the product's reviews, and frames nothing`, async () => {
        const sku = skuOf(linked);
        const page = await open(
          width,
          `${copy.prefix}/collections/all?rv-rate-order=${linked.id}&rv-rate-token=${token}&rv-rate-sku=${sku}`,
          null,
        );
        const dialog = page.getByRole("dialog", { name: `${copy.title} #${linked.number}` });
        await dialog.waitFor();
        const said = dialog.locator(".rv-modal__said");
        expect(await said.textContent()).toBe(copy.said);
        expect(await said.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(179, 38, 30)");
        expect(await dialog.locator(".rv-modal__gave").textContent()).toContain(copy.gave);
        const handle = productHandle(sku);
        expect(await dialog.getByRole("link", { name: copy.link }).getAttribute("href")).toBe(
          `${copy.prefix}/products/${handle}`,
        );
        // The product named once, by Shopify's title: the frame is not there to name it again.
        expect(await dialog.locator(".rv-modal__product-name").textContent()).toBe(linked.lines[0]!.title);
        expect(await dialog.locator("iframe").isHidden()).toBe(true);
        expect(await dialog.locator("iframe").getAttribute("src")).toBeNull();
        await shoot(page, `link-${locale}-${width}.png`);
        await done(page);
      });
    }
  }
});

function productHandle(sku: string): string {
  return st.store.products().find((p) => p.id.endsWith(`/${sku}`))!.handle;
}

describe("rate your orders, reviewed in the meantime", () => {
  for (const [locale, copy] of Object.entries(COPY)) {
    it(`GIVEN the account page open WHEN the product is reviewed elsewhere and the buyer presses Rate in ${locale} THEN the modal says they reviewed it, with a link to their account`, async () => {
      const page = await open(1280, `${copy.prefix}/account`, ANA.id);
      const order = fresh[locale]!;
      const rate = page.locator(`order-reviews [data-rv-rate-order="${order.id}"]`);
      await rate.waitFor();
      await reviewElsewhere(order, 4);
      await rate.click();
      const dialog = page.getByRole("dialog", { name: `${copy.title} #${order.number}` });
      await dialog.waitFor();
      expect(await dialog.locator(".rv-modal__said").textContent()).toBe(copy.said);
      expect(await dialog.getByRole("link", { name: copy.link }).getAttribute("href")).toBe(`${copy.prefix}/account`);
      expect(await dialog.locator("iframe").isHidden()).toBe(true);
      await shoot(page, `account-${locale}.png`);
      await page.keyboard.press("Escape");
      await done(page);
    });
  }
});

describe("a logged-in customer's second review on the product page", () => {
  for (const width of [375, 1280]) {
    it(`GIVEN the product page open WHEN the product is reviewed elsewhere and the customer sends the form at ${width} px THEN it says so as an error, in Portuguese, with a link to their account`, async () => {
      const formOrder = formOrders[width]!;
      const handle = productHandle(skuOf(formOrder));
      const page = await open(width, `/pt-BR/products/${handle}`, ANA.id);
      const write = page.getByRole("button", { name: "Escrever uma avaliação" });
      await write.waitFor();
      await reviewElsewhere(formOrder, 4);
      await write.click();
      await page.locator("review-form").waitFor();
      await page.locator(".rv-rate__star").nth(2).click();
      await page.locator("review-form textarea[name=text]").fill("Segunda vez.");
      await page.locator("review-form button[type=submit]").click();
      const status = page.locator("review-form [data-rv-form-status]");
      await expect.poll(() => status.getAttribute("data-tone")).toBe("error");
      expect(await status.textContent()).toContain(COPY["pt-BR"].said);
      expect(await status.getByRole("link", { name: COPY["pt-BR"].link }).getAttribute("href")).toBe("/pt-BR/account");
      await shoot(page, `form-customer-${width}.png`, { fullPage: true });
      const reviews = st.s.emu.control.state("acme").reviews.filter((r) => r.orderId === String(formOrder.id));
      expect(reviews).toHaveLength(1);
      await done(page);
    });
  }
});
