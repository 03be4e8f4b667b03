import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import { axeViolations } from "../helpers/axe";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// A shopper writes a review in Chromium, through the local storefront (which forwards to the app
// proxy as Shopify does) against the emulator: the form's code arrives only on "Write a review",
// the whole form works by keyboard, a logged-in customer adds an attribute and a photo (a real PUT
// to the emulator's upload URL, with progress), a guest proves an order, and axe finds nothing.

const shoot = shotsIn("writes");
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
let st: StorefrontStack;
let browser: Browser;
let handle: string;
let sku: string;

beforeAll(async () => {
  st = await startStorefrontStack("review-form", { PROXY_CACHE_MS: "0" });
  sku = st.productIds[0];
  handle = st.reviewedHandle;
  await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { orders: { orderIdSource: "name" } });
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  await client.admin.createOrderV2({
    orderId: "#2002",
    email: "guest.buyer@example.net",
    name: "Gil Guest",
    status: "delivered",
    items: [{ productId: sku, sku }],
  });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

async function open(width: number, customer?: string): Promise<{ page: Page; scripts: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  if (customer)
    await context.addCookies([{ name: "local_storefront_customer", value: customer, url: st.storefront.origin }]);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("request", (r) => r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname));
  await page.goto(`${st.storefront.origin}/products/${handle}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return { page, scripts };
}

const reviews = () => st.s.emu.control.state("acme").reviews.filter((r) => r.sku === sku);

describe("writing a review in Chromium", () => {
  it("GIVEN a logged-in customer WHEN they write a review by keyboard alone with an attribute and a photo THEN the emulator holds it as the spec says", async () => {
    const { page, scripts } = await open(1280, "7001");
    expect(scripts.some((s) => s.endsWith("/reviews-form.js"))).toBe(false);
    const write = page.locator("[data-rv-write]");
    await write.focus();
    await page.keyboard.press("Enter");
    await page.locator("review-form").waitFor();
    expect(scripts.some((s) => s.endsWith("/reviews-form.js"))).toBe(true);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.hasAttribute("data-rv-form-heading")))
      .toBe(true);
    expect(await axeViolations(page, "product-reviews")).toEqual([]);

    // Send with no rating: told, and focus goes to the stars.
    await page.keyboard.press("Tab"); // first star
    await page.locator("review-form form").evaluate((f: HTMLFormElement) => f.requestSubmit());
    await expect.poll(() => page.locator('[data-rv-error-for="rating"]').textContent()).toContain("Choose a rating");
    // Arrow keys move within the radio group: 1 → 4 stars.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await page.locator('input[name="rating"]:checked').getAttribute("value")).toBe("4");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Soft and warm; the <b> stays text.");
    await expect.poll(() => page.locator("[data-rv-counter]").textContent()).toContain("34 of 5000");
    await shoot(page, `form-desktop.png`, {
      fullPage: false,
      clip: (await page.locator("product-reviews").boundingBox())!,
    });
    await page.keyboard.press("Tab"); // recommend: yes
    await page.keyboard.press("Space");
    // "<b>" is markup: refused with a translated message, the text kept.
    await page.keyboard.press("Tab"); // send
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator('review-form [data-rv-error-for="text"]').textContent())
      .toContain("plain text");
    await page.locator("review-form textarea[name=text]").fill("Soft and warm; true to size.");
    await page.locator("review-form button[type=submit]").focus();
    await page.keyboard.press("Enter");
    await page.locator('[data-rv-form-step="extras"]').waitFor();
    const review = reviews().find((r) => r.text === "Soft and warm; true to size.")!;
    expect(review).toMatchObject({
      userId: "7001",
      email: "ana.souza@example.com",
      rating: 4,
      recommended: true,
      source: "web",
    });

    // An attribute by keyboard, then a photo with progress.
    const firstAttr = page.locator("[data-attribute] input").first();
    await firstAttr.focus();
    await page.keyboard.press("Space");
    await page
      .locator('input[type=file][accept*="image/png"]')
      .setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: PNG });
    await expect.poll(() => page.locator(".rv-file .rv-file__note").first().textContent()).toBe("Uploaded");
    expect(
      await page
        .locator(".rv-file progress")
        .first()
        .evaluate((p: HTMLProgressElement) => p.value),
    ).toBe(100);
    // And a video, the same way.
    await page.locator('input[type=file][accept*="video/mp4"]').setInputFiles({
      name: "clip.mp4",
      mimeType: "video/mp4",
      buffer: Buffer.from("00000018667479706d703432000000006d703432", "hex"),
    });
    await expect.poll(() => page.locator(".rv-file .rv-file__note").nth(1).textContent()).toBe("Uploaded");
    await shoot(page, `extras-desktop.png`, {
      clip: (await page.locator("product-reviews").boundingBox())!,
    });
    await page.locator('[data-rv-form-step="extras"] button[type=submit]').focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator("review-form [data-rv-form-status]").textContent())
      .toContain("will appear once it is approved");
    const stored = reviews().find((r) => r._id === review._id)!;
    expect(stored.pictures).toHaveLength(1);
    expect(stored.video).toBeTruthy();
    expect(stored.attributes.length).toBeGreaterThan(0);
    expect(await axeViolations(page, "product-reviews")).toEqual([]);
    // Nothing of the update token reached the page.
    expect(await page.content()).not.toContain(stored.updateToken);
    await page.context().close();
  });

  it("GIVEN a shopper WHEN they mark a review helpful by keyboard THEN its count goes up once and nothing moves", async () => {
    const { page } = await open(1280);
    const review = page.locator("product-reviews [data-rv-slot] article[data-rv-review]").first();
    const helpful = review.locator('[data-rv-vote="helpful"]');
    const count = Number(await review.locator('[data-rv-count="helpful"]').textContent());
    const boxes = async () =>
      page.locator("product-reviews [data-rv-slot] article[data-rv-review]").evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return [Math.round(r.top + window.scrollY), Math.round(r.height)];
        }),
      );
    const before = await boxes();
    await helpful.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => review.locator('[data-rv-count="helpful"]').textContent()).toBe(String(count + 1));
    expect(await helpful.getAttribute("aria-pressed")).toBe("true");
    expect(await boxes()).toEqual(before);
    await shoot(page, `voted-desktop.png`, { clip: (await review.boundingBox())! });
    expect(await axeViolations(page, "product-reviews")).toEqual([]);
    await page.context().close();
  });

  it("GIVEN a guest at phone width WHEN they give the order number and e-mail THEN the review is verified; a guest with neither is told to log in or find the order", async () => {
    const { page } = await open(375);
    await page.locator("[data-rv-write]").click();
    await page.locator("review-form").waitFor();
    await page.locator(".rv-rate__star").nth(4).click();
    await page.locator("review-form textarea[name=text]").fill("Guest here.");
    await page.locator("review-form button[type=submit]").click();
    await expect
      .poll(() => page.locator("review-form [data-rv-form-status]").textContent())
      .toContain("Log in, or enter the number");
    await shoot(page, `guest-refused-phone.png`, { fullPage: true });
    await page.locator("review-form input[name=orderNumber]").fill("2002");
    await page.locator("review-form input[name=email]").fill("guest.buyer@example.net");
    await page.locator("review-form button[type=submit]").click();
    await page.locator('[data-rv-form-step="extras"]').waitFor();
    await shoot(page, `guest-sent-phone.png`, { fullPage: true });
    expect(reviews().find((r) => r.text === "Guest here.")).toMatchObject({
      verified: true,
      orderId: "#2002",
      rating: 5,
    });
    expect(await axeViolations(page, "product-reviews")).toEqual([]);
    await page.context().close();
  });

  it("GIVEN a review link from an e-mail WHEN the buyer opens it THEN the form is open with the rating chosen, the token leaves the address bar, and the review is a verified purchase", async () => {
    const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
    await client.admin.createOrderV2({
      orderId: "#2003",
      email: "link.buyer@example.net",
      name: "Lee Link",
      status: "delivered",
      items: [{ productId: sku, sku }],
    });
    const { verificationTokenId } = await client.storefront.findOrder({
      orderId: "#2003",
      email: "link.buyer@example.net",
    });
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, userAgent: USER_AGENT });
    const page = await context.newPage();
    await page.goto(
      `${st.storefront.origin}/products/${handle}?rv-order=${encodeURIComponent("#2003")}&rv-token=${verificationTokenId}&rv-rating=5&utm_source=email`,
    );
    await blockScriptsRan(page);
    await page.locator("review-form").waitFor();
    expect(new URL(page.url()).search).toBe("?utm_source=email");
    expect(await page.locator('input[name="rating"]:checked').getAttribute("value")).toBe("5");
    expect(await page.locator('review-form [data-rv-field="who"]').count()).toBe(0);
    await expect.poll(() => page.locator("[data-rv-link-note]").isVisible()).toBe(true);
    await page.locator("review-form textarea[name=text]").fill("Came from the e-mail link.");
    await shoot(page, `link-phone.png`, { fullPage: false });
    await page.locator("review-form button[type=submit]").click();
    await page.locator('[data-rv-form-step="extras"]').waitFor();
    expect(reviews().find((r) => r.text === "Came from the e-mail link.")).toMatchObject({
      verified: true,
      orderId: "#2003",
      rating: 5,
      source: "web",
    });
    expect(await axeViolations(page, "product-reviews")).toEqual([]);
    await context.close();
  });

  it.each([375, 1280])(
    'GIVEN the customer who reviewed this product at %i px THEN "You reviewed this" stands where the write button was, and nothing below moves',
    async (width) => {
      const { page } = await open(width, "7001");
      const top = () =>
        page
          .locator("product-reviews [data-rv-slot]")
          .evaluate((el) => Math.round(el.getBoundingClientRect().top + scrollY));
      const before = await top();
      await page.locator("product-reviews").scrollIntoViewIfNeeded();
      await expect
        .poll(() => page.locator("product-reviews [data-rv-reviewed]").textContent())
        .toBe("You reviewed this");
      expect(await page.locator("[data-rv-write]").count()).toBe(0);
      expect(await top()).toBe(before);
      await shoot(page.locator("product-reviews .rv__top"), `reviewed-${width}.png`);
      expect(await axeViolations(page, "product-reviews")).toEqual([]);
      await page.context().close();
      // Another customer is offered the button.
      const other = await open(width, "7003");
      await other.page.locator("product-reviews").scrollIntoViewIfNeeded();
      await other.page.waitForLoadState("networkidle");
      expect(await other.page.locator("[data-rv-write]").count()).toBe(1);
      await other.page.context().close();
    },
  );

  it.each([375, 1280])(
    "GIVEN a guest's helpful vote at %i px WHEN the page is reloaded THEN the button stays pressed, the count includes the vote, and a second press says they already voted",
    async (width) => {
      const { page } = await open(width);
      // By id: the order of the list may change once the back-sync brings the votes in.
      const id = await page.locator("product-reviews [data-rv-slot] article[data-rv-review]").nth(1).getAttribute("id");
      const review = page.locator(`#${id}`);
      const helpful = review.locator('[data-rv-vote="helpful"]');
      const count = () => review.locator('[data-rv-count="helpful"]').textContent();
      const was = Number(await count());
      await helpful.click();
      await expect.poll(count).toBe(String(was + 1));
      await page.reload({ waitUntil: "networkidle" });
      await expect.poll(() => helpful.getAttribute("aria-pressed")).toBe("true");
      expect(await count()).toBe(String(was + 1));
      const votes: string[] = [];
      page.on("request", (r) => r.url().endsWith("/vote") && votes.push(r.url()));
      await review.locator('[data-rv-vote="unhelpful"]').click();
      await expect
        .poll(() => review.locator("[data-rv-vote-status]").textContent())
        .toBe("You already voted on this review.");
      expect(votes).toEqual([]);
      await shoot(review, `voted-reloaded-${width}.png`);
      await page.context().close();
      // The next back-sync run brings the vote into the product's own numbers: any shopper sees it.
      await st.backSync();
      const fresh = await open(width);
      const again = fresh.page.locator(`#${id}`);
      expect(await again.locator('[data-rv-count="helpful"]').textContent()).toBe(String(was + 1));
      expect(await again.locator('[data-rv-vote="helpful"]').getAttribute("aria-pressed")).toBe("false");
      await fresh.page.context().close();
    },
  );
});
