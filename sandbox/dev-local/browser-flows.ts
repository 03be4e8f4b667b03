import type { Browser, Page } from "playwright-core";
import { LOCAL_CUSTOMERS } from "../local-storefront/pages";
import { blockScriptsRan, DESKTOP_USER_AGENT } from "./browser-check";
import { DEMO_ACCOUNT } from "./demo";

// The storefront flows `dev:local` prints, completed in Chromium as a shopper would (click, fill,
// send, see the confirmation), with the selectors of the browser tests that prove them
// (test/e2e/review-form, rating-modal, order-reviews). Each is a first review at the service: the
// write uses a product Ana has not reviewed, the guest form and the modal use their own order's
// product (demo-storefront.ts keeps those apart from the HTTP checks and the Shop app act).

const within = 20_000;

/** The printed flows a probe completes. */
export interface StorefrontFlows {
  storefrontOrigin: string;
  emulatorOrigin: string;
  /** A product page's handle, by the service's SKU (the storefront's reader). */
  handleOf: (sku: string) => Promise<string | undefined>;
  guest?: { name: string; email: string; handle: string; sku: string; orderId: string };
  rate?: { url: string; orderId: string };
}

interface HeldReview {
  sku: string;
  text?: string;
  userId?: string;
  orderId?: string;
  verified?: boolean;
}

async function heldReviews(emulatorOrigin: string): Promise<HeldReview[]> {
  const res = await fetch(`${emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`);
  return ((await res.json()) as { reviews: HeldReview[] }).reviews;
}

async function held(emulatorOrigin: string, text: string, what: string): Promise<HeldReview> {
  const review = (await heldReviews(emulatorOrigin)).find((r) => r.text === text);
  if (!review) throw new Error(`the service does not hold the review ${what}`);
  return review;
}

/** Opens `path` in a fresh desktop context; `as` logs in through the storefront's "Log in as". */
async function open(browser: Browser, origin: string, path: string, as?: string) {
  const context = await browser.newContext({ userAgent: DESKTOP_USER_AGENT, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const url = as ? `/account/login-as?customer=${as}&return=${encodeURIComponent(path)}` : path;
  await page.goto(`${origin}${url}`, { waitUntil: "networkidle", timeout: 60_000 });
  await blockScriptsRan(page, within);
  return { page, errors, close: () => context.close() };
}

async function fillForm(page: Page, text: string, order?: { name: string; email: string }) {
  await page.locator("[data-rv-write]").click({ timeout: within });
  await page.locator("review-form").waitFor({ timeout: within });
  await page.locator(".rv-rate__star").nth(4).click({ timeout: within });
  await page.locator("review-form textarea[name=text]").fill(text);
  if (order) {
    await page.locator("review-form input[name=orderNumber]").fill(order.name);
    await page.locator("review-form input[name=email]").fill(order.email);
  }
  await page.locator("review-form button[type=submit]").click();
  await page.locator('[data-rv-form-step="extras"]').waitFor({ timeout: within });
}

const dialogOpen = (page: Page, open: boolean) =>
  page.waitForFunction(
    (open) => (document.querySelector<HTMLDialogElement>("rating-modal dialog")?.open === true) === open,
    open,
    { timeout: within },
  );

/** Rates inside the modal's frame (the service's rating page) and waits for the modal to close. */
async function rateInModal(page: Page, text: string) {
  await dialogOpen(page, true);
  const frame = page.frameLocator("rating-modal iframe");
  await frame.locator("form.rate").first().waitFor({ timeout: within });
  await frame.locator('form.rate label[for$="-5"]').first().click({ timeout: within });
  await frame.locator("form.rate textarea").first().fill(text);
  await frame.locator("form.rate button[type=submit]").first().click();
  await dialogOpen(page, false);
}

type Flow = (browser: Browser, f: StorefrontFlows) => Promise<string>;

const ana = LOCAL_CUSTOMERS[0]!;

const flows: Record<string, Flow> = {
  "write a review": async (browser, f) => {
    // A product Ana has not reviewed (the HTTP check reviewed the printed one as her).
    const reviews = await heldReviews(f.emulatorOrigin);
    const mine = new Set(reviews.filter((r) => r.userId === ana.id).map((r) => r.sku));
    const skus = [...new Set(reviews.map((r) => r.sku))].filter((s) => !mine.has(s));
    let handle: string | undefined;
    for (const sku of skus) if ((handle = await f.handleOf(sku))) break;
    if (!handle) throw new Error(`no product ${ana.firstName} has not reviewed`);
    const text = "Written in Chromium by the dev:local check.";
    const { page, errors, close } = await open(browser, f.storefrontOrigin, `/products/${handle}`, ana.id);
    try {
      await fillForm(page, text);
      if (errors.length) throw new Error(errors.join("; "));
    } finally {
      await close();
    }
    const review = await held(f.emulatorOrigin, text, `as ${ana.firstName}'s`);
    if (review.userId !== ana.id) throw new Error(`the review is not ${ana.firstName}'s`);
    return `"Log in as" ${ana.firstName} ${ana.lastName}, "Write a review" on /products/${handle}: sent, the service holds it as hers`;
  },
  "guest verified review": async (browser, f) => {
    const guest = f.guest;
    if (!guest) throw new Error("no guest order printed");
    const text = "A guest's verified review, sent in Chromium by the dev:local check.";
    const { page, errors, close } = await open(browser, f.storefrontOrigin, `/products/${guest.handle}`);
    try {
      await fillForm(page, text, guest);
      if (errors.length) throw new Error(errors.join("; "));
    } finally {
      await close();
    }
    const review = await held(f.emulatorOrigin, text, "of the guest");
    if (!review.verified || review.orderId !== guest.orderId) throw new Error("the guest's review is not verified");
    return `logged out, order ${guest.name} and its buyer's e-mail: sent, a verified purchase at the service`;
  },
  "rating modal": async (browser, f) => {
    const rate = f.rate;
    if (!rate) throw new Error("no rating link printed");
    const text = "Rated in the modal in Chromium by the dev:local check.";
    const link = new URL(rate.url);
    const { page, errors, close } = await open(browser, f.storefrontOrigin, `${link.pathname}${link.search}`);
    try {
      await rateInModal(page, text);
      await page.locator("[data-rv-modal-thanks]").filter({ hasText: /\S/ }).waitFor({ timeout: within });
      if (errors.length) throw new Error(errors.join("; "));
    } finally {
      await close();
    }
    const review = await held(f.emulatorOrigin, text, "rated in the modal");
    if (!review.verified || review.orderId !== rate.orderId) throw new Error("the modal's review is not verified");
    return "the printed rating link opens the modal; rated inside it, it closed with thanks, a verified review";
  },
  "account rating": async (browser, f) => {
    const text = "Rated from the account page in Chromium by the dev:local check.";
    const { page, errors, close } = await open(browser, f.storefrontOrigin, "/account", ana.id);
    try {
      await page.locator("order-reviews .rv-or-list").waitFor({ timeout: within });
      const rate = page.locator("order-reviews .rv-or-item__rate[data-rv-rate-order]").first();
      const order = await rate.getAttribute("data-rv-rate-order", { timeout: within });
      await rate.click();
      await rateInModal(page, text);
      await page
        .locator(`order-reviews #rv-order-${order} .rv-or-item--reviewed`)
        .filter({ hasText: text })
        .waitFor({ timeout: within });
      if (errors.length) throw new Error(errors.join("; "));
    } finally {
      await close();
    }
    await held(f.emulatorOrigin, text, "rated from the account page");
    return `"Rate your orders" as ${ana.firstName}: "Rate" opened the modal, rated inside it, the block shows her review`;
  },
};

/** Completes each printed flow; the lines to print and the failures. */
export async function completeStorefrontFlows(
  browser: Browser,
  f: StorefrontFlows,
): Promise<{ done: string[]; failures: string[] }> {
  const done: string[] = [];
  const failures: string[] = [];
  for (const [name, flow] of Object.entries(flows)) {
    const started = Date.now();
    try {
      done.push(`${name}: ${await flow(browser, f)} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failures.push(`storefront flow "${name}": ${(e as Error).message.split("\n")[0]}`);
    }
  }
  return { done, failures };
}
