import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import { axeViolations } from "../helpers/axe";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// The Q&A block in Chromium, through the local storefront against the emulator: nothing is asked
// until the block nears the screen, pages by keyboard, a logged-in customer asks a question by
// keyboard alone, a guest is told what is missing, the space kept for the list stops the page
// below from jumping, and axe finds nothing.

const shoot = shotsIn("questions");
let st: StorefrontStack;
let browser: Browser;
let sku: string;

beforeAll(async () => {
  st = await startStorefrontStack("questions-browser", { PROXY_CACHE_MS: "0" });
  sku = st.productIds[0];
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

async function open(width: number, customer?: string): Promise<{ page: Page; asked: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, userAgent: USER_AGENT });
  if (customer)
    await context.addCookies([{ name: "local_storefront_customer", value: customer, url: st.storefront.origin }]);
  const page = await context.newPage();
  const asked: string[] = [];
  page.on("request", (r) => r.resourceType() === "fetch" && r.url().includes("/questions") && asked.push(r.url()));
  await page.goto(`${st.storefront.origin}/products/${st.reviewedHandle}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return { page, asked };
}

const items = (page: Page) => page.locator("product-questions .rv-q-item");
const questions = () => st.s.emu.control.state("acme").questions.filter((q) => q.sku === sku);

describe("questions and answers in Chromium", () => {
  it("GIVEN a logged-in customer WHEN they page and ask by keyboard THEN the pages come from the proxy and the emulator holds the question as theirs", async () => {
    const { page, asked } = await open(1280, "7001");
    await page.locator("product-questions").scrollIntoViewIfNeeded();
    await expect.poll(() => items(page).count()).toBe(5);
    expect(asked).toHaveLength(1);
    expect(await page.locator("product-questions [data-rv-page-status]").textContent()).toBe("8 questions");
    await shoot(page.locator("product-questions"), `questions-desktop.png`);
    expect(await axeViolations(page, "product-questions")).toEqual([]);

    // Next page by keyboard: focus goes to the new page's status.
    await page.locator('product-questions [data-rv-goto="2"]').focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("product-questions [data-rv-page]").getAttribute("data-page")).toBe("2");
    expect(await items(page).count()).toBe(3);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.hasAttribute("data-rv-page-status")))
      .toBe(true);

    // Ask by keyboard alone.
    await page.locator("[data-rv-ask]").focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.hasAttribute("data-rv-form-heading")))
      .toBe(true);
    expect(await page.locator("[data-rv-ask]").getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Hi");
    await page.keyboard.press("Tab"); // send
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator('product-questions [data-rv-error-for="text"]').textContent())
      .toContain("at least 5 characters");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("text");
    await page.keyboard.type(" there, is it warm enough for winter?");
    await shoot(page.locator("product-questions"), `ask-desktop.png`);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator("product-questions [data-rv-form-status]").textContent())
      .toBe("Thank you: your question was sent. The store checks questions before they appear here.");
    expect(questions().find((q) => q.text === "Hi there, is it warm enough for winter?")).toMatchObject({
      userId: "7001",
      email: "ana.souza@example.com",
      status: "sent",
    });
    expect(await axeViolations(page, "product-questions")).toEqual([]);
    // Escape closes the form and gives focus back to its button.
    await page.locator("[data-rv-ask]").focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.evaluate(() => document.activeElement?.hasAttribute("data-rv-ask"))).toBe(true);
    await page.context().close();
  });

  it("GIVEN a guest at phone width THEN the list fills the space kept for it without moving what follows, and a question without an order asks them to log in or give one", async () => {
    const { page, asked } = await open(375);
    // Far below the first screen: not asked for yet.
    expect(asked).toEqual([]);
    const block = page.locator("product-questions");
    await page.evaluate(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
          if (!e.hadRecentInput) w.shifts += e.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    // Scrolled as a shopper does, a screen at a time: the list is there before the block is seen.
    for (let i = 0; i < 40 && (await block.evaluate((el) => el.getBoundingClientRect().top > innerHeight)); i++) {
      const y = await page.evaluate(() => scrollY);
      await page.mouse.wheel(0, 400);
      await page.waitForFunction((before) => scrollY !== before, y);
    }
    await expect.poll(() => items(page).count()).toBe(5);
    expect(asked).toHaveLength(1);
    await page.mouse.wheel(0, 800);
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
    await shoot(page, `questions-phone.png`, { fullPage: true });
    await page.locator("[data-rv-ask]").click();
    await page.locator("product-questions textarea[name=text]").fill("Does it run small?");
    await page.locator("product-questions button[type=submit]").click();
    await expect
      .poll(() => page.locator("product-questions [data-rv-form-status]").textContent())
      .toContain("to ask a question");
    await shoot(block, `ask-guest-phone.png`);
    expect(await axeViolations(page, "product-questions")).toEqual([]);
    await page.context().close();
  });

  it.each([375, 1280])(
    "GIVEN the merchant allows guests' questions WHEN a guest asks with a name and an e-mail at %i px THEN it is sent, and what they are told is what the list then shows (nothing until the store publishes it)",
    async (width) => {
      await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { storefront: { guestQuestions: true } });
      await st.backSync();
      try {
        const { page } = await open(width);
        const block = page.locator("product-questions");
        await block.scrollIntoViewIfNeeded();
        await expect.poll(() => items(page).count()).toBe(5);
        const listed = await page.locator("product-questions [data-rv-page-status]").textContent();
        await page.locator("[data-rv-ask]").click();
        expect(await block.locator('input[name="orderNumber"]').count()).toBe(0);
        const text = `Is there a matching scarf? (${width})`;
        await block.locator("textarea[name=text]").fill(text);
        await block.locator("input[name=email]").fill("walk.in@example.net");
        await block.locator("button[type=submit]").click();
        await expect.poll(() => block.locator('[data-rv-error-for="name"]').textContent()).toBe("Enter your name.");
        expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
        await block.locator("input[name=name]").fill("Walter Inn");
        await shoot(block, `ask-guest-named-${width}.png`);
        await block.locator("button[type=submit]").click();
        await expect
          .poll(() => block.locator("[data-rv-form-status]").textContent())
          .toBe("Thank you: your question was sent. The store checks questions before they appear here.");
        expect(questions().find((q) => q.text === text)).toMatchObject({
          email: "walk.in@example.net",
          name: "Walter Inn",
          status: "sent",
        });
        await shoot(block, `asked-guest-${width}.png`);
        expect(await axeViolations(page, "product-questions")).toEqual([]);
        // Reloaded: the list is as it was, as the message said.
        await page.reload({ waitUntil: "networkidle" });
        await block.scrollIntoViewIfNeeded();
        await expect.poll(() => items(page).count()).toBe(5);
        expect(await page.locator("product-questions [data-rv-page-status]").textContent()).toBe(listed);
        expect(await page.locator("product-questions").textContent()).not.toContain(text);
        await page.context().close();
      } finally {
        await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { storefront: { guestQuestions: false } });
        await st.backSync();
      }
    },
  );
});
