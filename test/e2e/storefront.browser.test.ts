import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, type StorefrontStack } from "../helpers/storefront-stack";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";
import { axeViolations } from "../helpers/axe";

// What a shopper sees, in Chromium, through the local storefront: the simulated store's product
// page with the blocks rendered from the metafields the real back-sync wrote, the block script
// asking the real app proxy routes (signed by the storefront as Shopify signs them), the emulator
// behind them.

const shoot = shotsIn("proxy");
let st: StorefrontStack;
let browser: Browser;

beforeAll(async () => {
  st = await startStorefrontStack("sf-browser", { PROXY_CACHE_MS: "0" });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

async function open(path: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  await page.goto(`${st.storefront.origin}${path}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  return page;
}

/** Presses Tab until the focused element matches `selector` (keyboard only: no clicks, no focus()). */
async function tabTo(page: Page, selector: string, max = 250): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const shownIds = (page: Page) =>
  page.$$eval("product-reviews [data-rv-slot] article[data-rv-review]", (els) =>
    els.map((e) => e.id.replace(/^rv-review-/, "")),
  );

/** What the service itself answers for one query (the Client API's summary endpoint). */
async function serviceIds(sku: string, sort: string, query: Record<string, string> = {}): Promise<string[]> {
  const qs = new URLSearchParams({ page: "1", pageSize: "5", ...query });
  const body = (await (await fetch(`${st.s.emu.baseUrl}/acme/${sku}/summary/${sort}?${qs}`)).json()) as {
    reviews: { reviews: { _id: string }[] }[];
  };
  return body.reviews[0].reviews.map((r) => r._id);
}

const swapped = (page: Page, before: string[]) =>
  page.waitForFunction(
    (prev) => {
      const slot = document.querySelector("product-reviews [data-rv-slot]");
      if (!slot || slot.hasAttribute("aria-busy")) return false;
      const ids = [...slot.querySelectorAll("article[data-rv-review]")].map((e) => e.id);
      return slot.querySelector("[data-rv-error]") !== null || ids.join() !== prev.join();
    },
    before.map((id) => `rv-review-${id}`),
  );

describe("local storefront in Chromium", () => {
  it("GIVEN the product with reviews THEN stars under the title and the reviews block render (screenshots at 375 and 1280 px)", async () => {
    for (const [path, name] of [
      [`/products/${st.reviewedHandle}`, "product-en"],
      [`/pt-BR/products/${st.reviewedHandle}`, "product-pt-BR"],
      ["/es/collections/all", "collection-es"],
      [`/products/${st.unreviewedHandle}`, "product-no-reviews-en"],
    ] as const) {
      for (const width of [375, 1280]) {
        const page = await open(path, width);
        await shoot(page, `${name}-${width}.png`, { fullPage: true });
        await page.close();
      }
    }
    const page = await open(`/products/${st.reviewedHandle}`);
    expect(await page.getAttribute(".product__info [role=img]", "aria-label")).toMatch(
      /^\d\.\d out of 5 stars, \d+ reviews$/,
    );
    expect((await shownIds(page)).length).toBe(5);
    await page.close();
    // Nine loads and eight full-page screenshots: 36 s on a quiet machine, past 60 s on a loaded one.
  }, 180_000);

  it("GIVEN the product and collection pages THEN axe-core finds no violation", async () => {
    for (const path of [
      `/products/${st.reviewedHandle}`,
      `/pt-BR/products/${st.reviewedHandle}`,
      "/collections/all",
      `/products/${st.unreviewedHandle}`,
    ]) {
      const page = await open(path);
      expect(await axeViolations(page), path).toEqual([]);
      await page.close();
    }
  });

  it("GIVEN a page with only the star block THEN it causes no request beyond the page's own", async () => {
    const requestsOf = async (blocks: string) => {
      const page = await browser.newPage({ viewport: { width: 375, height: 800 }, userAgent: USER_AGENT });
      const seen: string[] = [];
      page.on("request", (r) => seen.push(new URL(r.url()).pathname));
      await page.goto(`${st.storefront.origin}/products/${st.reviewedHandle}?blocks=${blocks}`, {
        waitUntil: "networkidle",
      });
      await blockScriptsRan(page);
      const stars = await page.locator(".product__info [role=img]").count();
      await page.close();
      return { seen: seen.slice(1).sort(), stars };
    };
    const none = await requestsOf("none");
    const stars = await requestsOf("stars");
    expect(none.stars).toBe(0);
    expect(stars.stars).toBe(1);
    expect(stars.seen).toEqual(none.seen);
    expect(stars.seen.filter((p) => p.startsWith("/cdn/") || p.startsWith("/apps/"))).toEqual([]);
  });

  it("GIVEN the product page THEN the blocks' scripts are asked for only once it has painted, each once", async () => {
    // In <head> with `defer` (a block schema's `javascript`), they ran before a phone's first paint.
    const page = await open(`/products/${st.reviewedHandle}`, 375);
    const loads = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName("first-paint")[0]?.startTime ?? null,
      scripts: performance
        .getEntriesByType("resource")
        .filter((r) => /\/(reviews|questions|rating-modal)\.js\b/.test(r.name))
        .map((r) => ({ file: r.name.split("?")[0].split("/").pop(), start: r.startTime })),
      defined: ["product-reviews", "product-questions", "rating-modal"].map((n) => !!customElements.get(n)),
    }));
    await page.close();
    expect(loads.firstPaint).not.toBeNull();
    // The rating modal's script only where a modal opens (rating-modal-loading.browser.test.ts).
    expect(loads.scripts.map((x) => x.file).sort()).toEqual(["questions.js", "reviews.js"]);
    for (const x of loads.scripts) expect(x.start, x.file).toBeGreaterThanOrEqual(loads.firstPaint!);
    expect(loads.defined).toEqual([true, true, false]);
  });

  it.each([
    ["a visible page that reached load before its first frame", false, "asked"],
    ["a hidden tab, where no frame comes", true, "loaded"],
  ])("GIVEN %s THEN the blocks' scripts are added at load only when hidden", async (_name, hidden, state) => {
    const page = await browser.newPage({ viewport: { width: 375, height: 900 }, userAgent: USER_AGENT });
    // No paint is reported and no animation frame comes; `hidden` as the tab's visibility.
    await page.addInitScript((h) => {
      Object.defineProperty(PerformanceObserver, "supportedEntryTypes", { get: () => [] });
      window.requestAnimationFrame = () => 0;
      Object.defineProperty(document, "hidden", { get: () => h });
    }, hidden);
    await page.goto(`${st.storefront.origin}/products/${st.reviewedHandle}`, { waitUntil: "networkidle" });
    // Network idle can come between a script's response and its `onload` on a busy machine: a hidden
    // tab's scripts are waited for until they ran; a visible tab's must still be only asked for.
    if (hidden)
      await page
        .waitForFunction(
          () => {
            const all = Object.values((window as unknown as { rvScripts?: Record<string, string> }).rvScripts ?? {});
            return all.length === 2 && all.every((s) => s === "loaded");
          },
          null,
          { timeout: 10_000 },
        )
        .catch(() => undefined);
    const scripts = await page.evaluate(() => (window as unknown as { rvScripts: Record<string, string> }).rvScripts);
    await page.close();
    expect(Object.keys(scripts)).toHaveLength(2);
    expect(new Set(Object.values(scripts))).toEqual(new Set([state]));
  });

  it("GIVEN the enhancement loading and a sort swapping the list THEN layout shift stays at or below 0.01", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 }, userAgent: USER_AGENT });
    await page.addInitScript(() => {
      const w = window as unknown as { __shifts: { value: number; input: boolean }[] };
      w.__shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
          w.__shifts.push({ value: e.value, input: e.hadRecentInput });
      }).observe({ type: "layout-shift", buffered: true });
    });
    // The reviews block alone below the product (no Q&A block under it to be moved by the list).
    await page.goto(`${st.storefront.origin}/products/${st.reviewedHandle}?blocks=reviews`, {
      waitUntil: "networkidle",
    });
    await blockScriptsRan(page);
    await page.evaluate(() => customElements.whenDefined("product-reviews"));
    await page.locator("product-reviews").scrollIntoViewIfNeeded();
    const before = await shownIds(page);
    await page.selectOption("select[name=sort]", "rating,asc");
    await swapped(page, before);
    const shifts = await page.evaluate(
      () => (window as unknown as { __shifts: { value: number; input: boolean }[] }).__shifts,
    );
    const cls = shifts.filter((x) => !x.input).reduce((a, x) => a + x.value, 0);
    expect(cls).toBeLessThanOrEqual(0.01);
    await page.close();
  });

  it("GIVEN only a keyboard THEN sort, rating filter, pages and the lightbox work, each page the service's own", async () => {
    const page = await open(`/products/${st.reviewedHandle}`);
    const sku = st.productIds[0];
    await page.evaluate(() => customElements.whenDefined("product-reviews"));

    // Sort: the select reached by Tab, changed with the arrow key.
    let before = await shownIds(page);
    await tabTo(page, "select[name=sort]");
    await page.keyboard.press("ArrowDown");
    await swapped(page, before);
    expect(await page.$eval("select[name=sort]", (e) => (e as HTMLSelectElement).value)).toBe("created,desc");
    expect(await shownIds(page)).toEqual(await serviceIds(sku, "created,desc"));

    // Filter: the 5-star histogram bar, pressed with Enter.
    before = await shownIds(page);
    await tabTo(page, 'button[data-rv-rating="5"]');
    await page.keyboard.press("Enter");
    await swapped(page, before);
    expect(await page.getAttribute('button[data-rv-rating="5"]', "aria-pressed")).toBe("true");
    expect(await shownIds(page)).toEqual(await serviceIds(sku, "created,desc", { rating: "5" }));

    // Pages: back to all ratings (Space on the same bar), then page 2 with Enter; focus follows.
    before = await shownIds(page);
    await page.keyboard.press("Space");
    await swapped(page, before);
    before = await shownIds(page);
    await tabTo(page, '[data-rv-goto="2"]');
    await page.keyboard.press("Enter");
    await swapped(page, before);
    expect(await shownIds(page)).toEqual(await serviceIds(sku, "created,desc", { page: "2" }));
    expect(await page.evaluate(() => document.activeElement?.hasAttribute("data-rv-page-status"))).toBe(true);

    // Lightbox: back to the first page (its first review has photos), open a photo with Enter, Escape closes it.
    before = await shownIds(page);
    await page.selectOption("select[name=sort]", "helpfulScore,desc");
    await swapped(page, before);
    await tabTo(page, "a[data-rv-media]");
    const opener = await page.evaluate(() => document.activeElement?.getAttribute("href"));
    await page.keyboard.press("Enter");
    await page.waitForSelector("reviews-lightbox dialog[open]");
    await shoot(page, `lightbox-open-1280.png`);
    expect(await page.evaluate(() => document.activeElement?.hasAttribute("data-rv-lightbox-close"))).toBe(true);
    await page.keyboard.press("Escape");
    await page.waitForSelector("reviews-lightbox dialog:not([open])", { state: "attached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe(opener);
    await shoot(page, `keyboard-after-lightbox-1280.png`);
    await page.close();
  });

  it("GIVEN the page THEN its JSON-LD holds one Product node and review markup attached to it by @id, with the numbers shown", async () => {
    const page = await open(`/products/${st.reviewedHandle}`);
    const { nodes, shown } = await page.evaluate(() => {
      const nodes = [...document.querySelectorAll('script[type="application/ld+json"]')].flatMap((s) => {
        const v = JSON.parse(s.textContent ?? "null") as Record<string, unknown>;
        return Array.isArray(v["@graph"]) ? (v["@graph"] as Record<string, unknown>[]) : [v];
      });
      const label = document.querySelector(".product__info [role=img]")?.getAttribute("aria-label") ?? "";
      const reviews = [...document.querySelectorAll("product-reviews [data-rv-slot] article[data-rv-review]")].map(
        (a) => ({
          name: a.querySelector(".rv-review__name")?.textContent?.trim(),
          rating: Number(/^(\d)/.exec(a.querySelector("[role=img]")?.getAttribute("aria-label") ?? "")?.[1]),
        }),
      );
      return { nodes, shown: { label, reviews } };
    });
    const products = nodes.filter((n) => n["@type"] === "Product");
    expect(products).toHaveLength(1);
    const productId = products[0]["@id"];
    expect(productId).toBe(`${st.storefront.origin}/products/${st.reviewedHandle}#product`);
    const attached = nodes.filter((n) => n !== products[0] && n["@id"] === productId);
    expect(attached).toHaveLength(1);
    expect(attached[0]["@type"]).toBeUndefined();
    const [, avg, count] = /^(\d\.\d) out of 5 stars, (\d+) reviews$/.exec(shown.label)!;
    const agg = attached[0].aggregateRating as { ratingValue: number; reviewCount: number };
    expect(agg.ratingValue).toBe(Number(avg));
    expect(agg.reviewCount).toBe(Number(count));
    const marked = (attached[0].review as { author: { name: string }; reviewRating: { ratingValue: number } }[]).map(
      (r) => ({ name: r.author.name, rating: r.reviewRating.ratingValue }),
    );
    expect(marked).toEqual(shown.reviews);
    await page.close();
  });

  it("GIVEN the service down THEN the shopper gets the translated message and a retry that works once it is back", async () => {
    const page = await open(`/pt-BR/products/${st.reviewedHandle}`);
    await page.evaluate(() => customElements.whenDefined("product-reviews"));
    st.s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "/summary" });
    try {
      const before = await shownIds(page);
      await tabTo(page, "select[name=sort]");
      await page.keyboard.press("ArrowDown");
      await swapped(page, before);
      expect(await page.textContent("product-reviews [data-rv-slot] [data-rv-error]")).toContain(
        "Não foi possível carregar as avaliações.",
      );
      // A sort change leaves focus on the select; the retry comes after the other controls.
      await tabTo(page, "[data-rv-retry]");
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Tentar de novo");
      await shoot(page, `service-down-pt-BR-1280.png`);
    } finally {
      st.s.emu.control.clearFaults();
    }
    await page.keyboard.press("Enter");
    await page.waitForSelector("product-reviews [data-rv-slot] article[data-rv-review]");
    expect(await shownIds(page)).toEqual(await serviceIds(st.productIds[0], "created,desc"));
    await page.close();
  });

  it("GIVEN a review approved in the emulator WHEN the back-sync runs once THEN the product page shows it and the new count", async () => {
    const sku = st.productIds[0];
    const label = async () => {
      const page = await open(`/products/${st.reviewedHandle}`);
      const text = await page.getAttribute(".product__info [role=img]", "aria-label");
      await page.close();
      return Number(/, (\d+) reviews$/.exec(text ?? "")?.[1]);
    };
    const before = await label();
    st.s.emu.control.publishReview(st.pending[sku]);
    await st.backSync();
    expect(await label()).toBe(before + 1);
  });
});
