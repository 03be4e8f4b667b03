import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import { axeViolations } from "../helpers/axe";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// The rating modal app embed in Chromium, through the local storefront, against the emulator's
// rating page: opened from a link and from a "Rate" button, a review sent inside the frame closes
// it, a message from any other origin does nothing, the keyboard alone works, focus comes back, the
// page behind does not scroll, full screen on a phone, and axe finds nothing.

const shoot = shotsIn("modal");
let st: StorefrontStack;
let browser: Browser;
let sku: string;
let rateOrigin: string;
const orders: { orderId: string; token: string }[] = [];

beforeAll(async () => {
  st = await startStorefrontStack("rating-modal", { PROXY_CACHE_MS: "0" });
  sku = st.productIds[1];
  rateOrigin = new URL(st.s.emu.rateUrl).origin;
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  for (const n of [4001, 4002, 4003]) {
    await client.admin.createOrderV2({
      orderId: `#${n}`,
      email: `buyer.${n}@example.net`,
      name: "Mia Modal",
      status: "delivered",
      items: [{ productId: sku, sku }],
    });
    orders.push({
      orderId: `#${n}`,
      token: (await client.storefront.findOrder({ orderId: `#${n}`, email: `buyer.${n}@example.net` }))
        .verificationTokenId,
    });
  }
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

async function open(width: number, query = ""): Promise<{ page: Page; rateRequests: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, userAgent: USER_AGENT });
  const page = await context.newPage();
  const rateRequests: string[] = [];
  page.on("request", (r) => r.url().startsWith(`${st.s.emu.rateUrl}/rate/`) && rateRequests.push(r.url()));
  await page.goto(`${st.storefront.origin}/products/${st.reviewedHandle}${query}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return { page, rateRequests };
}

const dialogOpen = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLDialogElement>("rating-modal dialog")?.open === true);
const reviewsOf = (orderId: string) => st.s.emu.control.state("acme").reviews.filter((r) => r.orderId === orderId);

async function rateInFrame(page: Page, stars: number | null, text: string) {
  const frame = page.frameLocator("rating-modal iframe");
  if (stars) await frame.locator(`form.rate label[for$="-${stars}"]`).first().click();
  await frame.locator("form.rate textarea").first().fill(text);
  await frame.locator("form.rate button[type=submit]").first().click();
}

describe("the rating modal", () => {
  it("GIVEN a rating link WHEN the buyer opens it THEN the modal shows the rating page for that order, the link leaves the address bar, and a review sent inside closes it with thanks", async () => {
    const { orderId, token } = orders[0]!;
    const { page } = await open(
      1280,
      `?rv-rate-order=${encodeURIComponent(orderId)}&rv-rate-token=${token}&rv-rate-sku=${sku}&rv-rating=4&rv-rate-product=Merino%20Tote&rv-rate-image=${encodeURIComponent("/images/cdn/merino-tote.svg")}&utm_source=email`,
    );
    await expect.poll(() => dialogOpen(page)).toBe(true);
    // The rating page focused on the product names it: the modal's own line does not repeat it.
    expect(await page.locator("rating-modal .rv-modal__product").isVisible()).toBe(false);
    // The shop sends order names as ids: the title names the order as the buyer knows it.
    expect(await page.getByRole("dialog", { name: `Rate your order ${orderId}` }).count()).toBe(1);
    expect(new URL(page.url()).search).toBe("?utm_source=email");
    const src = new URL((await page.locator("rating-modal iframe").getAttribute("src"))!);
    expect(src.origin).toBe(rateOrigin);
    expect(Object.fromEntries(src.searchParams)).toEqual({ embedded: "1", source: "store", sku, ratingClicked: "4" });
    // The page behind does not scroll.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
    await page.frameLocator("rating-modal iframe").locator("form.rate").first().waitFor();
    await shoot(page, `modal-desktop.png`);
    expect(await axeViolations(page, "rating-modal")).toEqual([]);
    await rateInFrame(page, null, "Rated inside the store's modal.");
    await expect.poll(() => dialogOpen(page)).toBe(false);
    await expect.poll(() => page.locator("[data-rv-modal-thanks]").textContent()).toBe("Thank you for your review!");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
    expect(reviewsOf(orderId)).toMatchObject([
      { rating: 4, text: "Rated inside the store's modal.", verified: true, sku },
    ]);
    await page.context().close();
  });

  it("GIVEN a Rate button WHEN used by keyboard THEN nothing is downloaded before, focus stays in the dialog, Escape closes it and focus returns to the button; a forged message from another origin does nothing", async () => {
    const { orderId, token } = orders[1]!;
    const { page, rateRequests } = await open(1280);
    // A "Rate" button as the order status blocks render them, anywhere on the page.
    await page.evaluate(
      ({ orderId, token }) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = "Rate";
        b.id = "rate-button";
        Object.assign(b.dataset, { rvRateOrder: orderId, rvRateToken: token });
        document.querySelector("main")!.prepend(b);
      },
      { orderId, token },
    );
    expect(rateRequests).toEqual([]);
    expect(await page.locator("rating-modal dialog").count()).toBe(0);
    await page.locator("#rate-button").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => dialogOpen(page)).toBe(true);
    await page.frameLocator("rating-modal iframe").locator("form.rate").first().waitFor();
    expect(rateRequests.length).toBeGreaterThan(0);
    // Tab moves only among the dialog's own controls and its frame's (past the last one the browser's
    // own controls, never the page behind, which the modal dialog makes inert).
    const where: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab");
      where.push(
        await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return "browser";
          return el.closest("rating-modal dialog")
            ? el.tagName === "IFRAME"
              ? "frame"
              : "dialog"
            : `page:${el.tagName}`;
        }),
      );
    }
    expect(where.filter((w) => w.startsWith("page:"))).toEqual([]);
    expect(where).toContain("frame");
    expect(where).toContain("dialog");
    // Forged: the same message from the store's own window, and from a frame of another origin.
    await page.evaluate(() => window.postMessage({ type: "review-sent" }, "*"));
    await page.evaluate(() => {
      const f = document.createElement("iframe");
      f.srcdoc = "<script>parent.postMessage({ type: 'review-sent' }, '*')</script>";
      document.body.append(f);
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    expect(await dialogOpen(page)).toBe(true);
    // Escape inside the service's frame belongs to that page (browsers pass no keys across origins):
    // back on the dialog's own controls by keyboard, Escape closes it.
    for (
      let i = 0;
      i < 10 && !(await page.evaluate(() => document.activeElement?.hasAttribute("data-rv-modal-close")));
      i++
    )
      await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialogOpen(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("rate-button");
    expect(await page.locator("[data-rv-modal-thanks]").textContent()).toBe("");
    expect(reviewsOf(orderId)).toEqual([]);
    // The backdrop closes it too.
    await page.locator("#rate-button").click();
    await expect.poll(() => dialogOpen(page)).toBe(true);
    await page.mouse.click(10, 10);
    await expect.poll(() => dialogOpen(page)).toBe(false);
    await page.context().close();
  });

  it("GIVEN an order known by Shopify's numeric id THEN the title names it by the name the button gives, and never by the bare id", async () => {
    const { token } = orders[0]!;
    const { page } = await open(1280);
    await page.evaluate(
      ({ token }) => {
        for (const [id, name] of [
          ["named", "#1037"],
          ["unnamed", ""],
        ]) {
          const b = document.createElement("button");
          b.type = "button";
          b.id = id!;
          b.textContent = "Rate";
          Object.assign(b.dataset, {
            rvRateOrder: "5923018113099",
            rvRateToken: token,
            ...(name ? { rvRateName: name } : {}),
          });
          document.querySelector("main")!.prepend(b);
        }
      },
      { token },
    );
    await page.locator("#named").click();
    await page.getByRole("dialog", { name: "Rate your order #1037" }).waitFor();
    await page.locator("[data-rv-modal-close]").click();
    await expect.poll(() => dialogOpen(page)).toBe(false);
    await page.locator("#unnamed").click();
    await page.getByRole("dialog", { name: "Rate your purchase" }).waitFor();
    expect(await page.getByText("5923018113099").count()).toBe(0);
    await page.context().close();
  });

  it("GIVEN Rate buttons with and without a product image THEN the modal shows the product's title beside its image asked small, or a placeholder, in a box that does not move", async () => {
    const { token } = orders[0]!;
    const { page } = await open(375);
    // Offline here: Shopify's CDN fails, as a broken image would.
    const cdn: string[] = [];
    await page.route("https://cdn.shopify.com/**", (route) => {
      if (route.request().url().includes("linen-apron")) cdn.push(route.request().url());
      return route.abort();
    });
    const foreign: string[] = [];
    page.on("request", (r) => r.url().startsWith("https://images.example/") && foreign.push(r.url()));
    const buttons: [string, Record<string, string>][] = [
      ["own", { rvRateProduct: "Stoneware Mug", rvRateImage: "/images/cdn/stoneware-mug.svg" }],
      [
        "cdn",
        { rvRateProduct: "Linen Apron", rvRateImage: "https://cdn.shopify.com/s/files/1/0001/linen-apron.jpg?v=17" },
      ],
      ["foreign", { rvRateProduct: "Café Mug", rvRateImage: "https://images.example/cafe-mug.jpg" }],
      ["none", { rvRateProduct: "Gift Card" }],
      ["nameless", {}],
    ];
    await page.evaluate(
      ({ token, buttons }) => {
        for (const [id, data] of buttons) {
          const b = document.createElement("button");
          b.type = "button";
          b.id = id;
          b.textContent = "Rate";
          Object.assign(b.dataset, { rvRateOrder: "#4001", rvRateToken: token, ...data });
          document.querySelector("main")!.prepend(b);
        }
      },
      { token, buttons },
    );
    const line = page.locator("rating-modal .rv-modal__product");
    const media = page.locator("rating-modal .rv-modal__media");
    const openWith = async (id: string) => {
      await page.locator(`#${id}`).click();
      await expect.poll(() => dialogOpen(page)).toBe(true);
    };
    const close = async () => {
      await page.locator("[data-rv-modal-close]").click();
      await expect.poll(() => dialogOpen(page)).toBe(false);
    };
    const placeholderShown = () => page.locator("rating-modal .rv-modal__placeholder").isVisible();

    await openWith("own");
    expect(await line.textContent()).toBe("Stoneware Mug");
    const img = page.getByRole("img", { name: "Stoneware Mug" });
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    expect(
      await img.evaluate((el: HTMLImageElement) => [el.getAttribute("width"), el.getAttribute("height"), el.loading]),
    ).toEqual(["48", "48", "auto"]);
    expect(await placeholderShown()).toBe(false);
    const box = (await media.boundingBox())!;
    expect([box.width, box.height]).toEqual([48, 48]);
    await shoot(page, `modal-product-phone.png`);
    expect(await axeViolations(page, "rating-modal")).toEqual([]);
    await close();

    // Shopify's CDN is asked for twice the box's width; when it fails, the placeholder stays.
    await openWith("cdn");
    expect(await line.textContent()).toBe("Linen Apron");
    await expect.poll(() => cdn.length).toBeGreaterThan(0);
    expect(new Set(cdn)).toEqual(new Set(["https://cdn.shopify.com/s/files/1/0001/linen-apron.jpg?v=17&width=96"]));
    await expect.poll(placeholderShown).toBe(true);
    expect(await page.locator("rating-modal .rv-modal__media img").count()).toBe(0);
    await close();

    // Any other address is not fetched: the placeholder instead.
    await openWith("foreign");
    expect(await line.textContent()).toBe("Café Mug");
    expect(await placeholderShown()).toBe(true);
    expect(foreign).toEqual([]);
    await close();

    await openWith("none");
    expect(await line.textContent()).toBe("Gift Card");
    expect(await placeholderShown()).toBe(true);
    expect(await media.boundingBox()).toMatchObject({ width: 48, height: 48 });
    await close();

    // Without a product the line is not there at all.
    await openWith("nameless");
    expect(await line.isVisible()).toBe(false);
    await close();
    await page.context().close();
  });

  it("GIVEN a phone THEN the modal fills the screen, its close button works, and a review sent inside closes it", async () => {
    const { orderId, token } = orders[2]!;
    const { page } = await open(375, `?rv-rate-order=${encodeURIComponent(orderId)}&rv-rate-token=${token}`);
    await expect.poll(() => dialogOpen(page)).toBe(true);
    const box = (await page.locator("rating-modal dialog").boundingBox())!;
    expect([Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)]).toEqual([
      0, 0, 375, 800,
    ]);
    await page.frameLocator("rating-modal iframe").locator("form.rate").first().waitFor();
    await shoot(page, `modal-phone.png`);
    await rateInFrame(page, 5, "From my phone.");
    await expect.poll(() => dialogOpen(page)).toBe(false);
    expect(reviewsOf(orderId)).toMatchObject([{ rating: 5, verified: true }]);
    // Opened again from the same link's data, the close button closes it.
    await page.evaluate(
      ({ orderId, token }) => {
        const b = document.createElement("button");
        Object.assign(b.dataset, { rvRateOrder: orderId, rvRateToken: token });
        b.id = "again";
        document.body.append(b);
        b.click();
      },
      { orderId, token },
    );
    await expect.poll(() => dialogOpen(page)).toBe(true);
    await page.locator("[data-rv-modal-close]").click();
    await expect.poll(() => dialogOpen(page)).toBe(false);
    await page.context().close();
  });
});
