import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDrop, createThemeRenderer } from "../../app/.server/storefront/liquid";
import { launchChromium, pageWith } from "./browser";
import { EXTENSION_DIR, PRODUCT_ID, app, productWith, review, shop, snapshot } from "./fixtures";

// Every block of the theme extension rendered through the engine and read back from the DOM
// Chromium builds: 0, 1 and 500 reviews, a product never synced, the theme editor, each locale,
// hostile review content, and the JSON-LD against what the page shows.

const theme = createThemeRenderer({ extensionDir: EXTENSION_DIR, assetBaseUrl: "/ext", cache: false });
const LOCALES = ["en", "pt-BR", "es"] as const;
let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

type Ctx = Parameters<typeof theme.renderBlock>[1];
async function render(handle: string, product: unknown, locale = "en", over: Partial<Ctx> = {}) {
  const html = await theme.renderBlock(handle, { product, shop, app, block: { id: "b1" }, ...over }, locale);
  expect(html).not.toContain("translation missing");
  expect(html).not.toContain("Liquid error");
  return html;
}
async function open(html: string) {
  const p = await pageWith(browser, html);
  pages.push(p.page);
  return p;
}

/** What a shopper (and a screen reader) gets from the reviews block. */
function readReviews(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector("product-reviews");
    if (!root) return null;
    const text = (sel: string, el: ParentNode = root) => el.querySelector(sel)?.textContent?.trim() ?? null;
    const list = root.querySelector("[data-rv-page] ol[role=list]");
    return {
      id: root.id,
      heading: text("h2"),
      avg: text(".rv-score__avg"),
      starsLabel: root.querySelector(".rv-score [role=img]")?.getAttribute("aria-label") ?? null,
      bars: [...root.querySelectorAll("[data-rv-rating]")].map((b) => ({
        rating: b.getAttribute("data-rv-rating"),
        name: b.textContent!.replace(/\s+/g, " ").trim(),
        pressed: b.getAttribute("aria-pressed"),
      })),
      page:
        root.querySelector("[data-rv-page]") &&
        Object.fromEntries(
          ["page", "pages", "total"].map((k) => [
            k,
            Number(root.querySelector("[data-rv-page]")!.getAttribute(`data-${k}`)),
          ]),
        ),
      reviews: list
        ? [...list.querySelectorAll(":scope > li > article")].map((a) => ({
            name: text(".rv-review__name", a),
            text: a.querySelector(":scope > .rv-review__text")?.textContent ?? null,
            rating: a.querySelector("[role=img]")?.getAttribute("aria-label") ?? null,
            date: a.querySelector("time")?.getAttribute("datetime") ?? null,
          }))
        : [],
      pageButtons: [...root.querySelectorAll("[data-rv-goto]")].map((b) => ({
        goto: b.getAttribute("data-rv-goto"),
        label: b.getAttribute("aria-label"),
        current: b.getAttribute("aria-current"),
      })),
      jsonld: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) =>
        JSON.parse(s.textContent!),
      ),
      scripts: [...document.querySelectorAll("script[src]")].map((s) =>
        s.getAttribute("src")!.split("?")[0].split("/").pop(),
      ),
      sample: root.hasAttribute("data-rv-sample"),
      empty: text("[data-rv-none]"),
    };
  });
}

describe("star-rating block", () => {
  it.each(LOCALES)("draws stars with a translated label linking to the reviews (%s)", async (locale) => {
    const { page } = await open(await render("star-rating", productWith(snapshot(500)), locale));
    const stars = await page.evaluate(() => {
      const box = document.querySelector("[data-rv-stars]")!;
      const img = box.querySelector("[role=img]")!;
      return {
        label: img.getAttribute("aria-label"),
        href: box.querySelector("a")!.getAttribute("href"),
        height: box.getBoundingClientRect().height,
        scripts: document.scripts.length,
        links: document.querySelectorAll("link").length,
        linkName: box.querySelector("a")!.textContent!.trim(),
      };
    });
    const avg = snapshot(500).avg.toFixed(1);
    const expected = {
      en: `${avg} out of 5 stars, 500 reviews`,
      "pt-BR": `${avg.replace(".", ",")} de 5 estrelas, 500 avaliações`,
      es: `${avg.replace(".", ",")} de 5 estrellas, 500 reseñas`,
    }[locale];
    expect(stars.label).toBe(expected);
    expect(stars.href).toBe(`#rv-reviews-${PRODUCT_ID}`);
    // No JavaScript and no stylesheet to fetch; the height is fixed by the block itself.
    expect(stars.scripts).toBe(0);
    expect(stars.links).toBe(0);
    expect(stars.height).toBeGreaterThanOrEqual(24);
  });

  it("names one review in the singular and keeps a whole average's decimal", async () => {
    const one = snapshot(1);
    const { page } = await open(await render("star-rating", productWith(one)));
    expect(await page.getAttribute("[role=img]", "aria-label")).toBe("5.0 out of 5 stars, 1 review");
  });

  it("renders nothing at zero reviews or without metafields, unless 'no reviews yet' is switched on", async () => {
    expect((await render("star-rating", productWith(snapshot(0)))).trim()).toBe("");
    expect((await render("star-rating", productWith(null))).trim()).toBe("");
    const { page } = await open(
      await render("star-rating", productWith(null), "es", { block: { id: "b1", settings: { show_empty: true } } }),
    );
    expect(await page.textContent("[data-rv-stars] a")).toBe("Todavía no hay reseñas");
  });

  it("falls back to the standard rating metafields without a snapshot", async () => {
    const product = productWith(null, [
      {
        namespace: "reviews",
        key: "rating",
        type: "rating",
        value: '{"value":"4.25","scale_min":"1.0","scale_max":"5.0"}',
      },
      { namespace: "reviews", key: "rating_count", type: "number_integer", value: "8" },
    ]);
    const { page } = await open(await render("star-rating", product));
    expect(await page.getAttribute("[role=img]", "aria-label")).toBe("4.3 out of 5 stars, 8 reviews");
  });

  it("shows sample stars in the theme editor on a product without reviews", async () => {
    const { page } = await open(
      await render("star-rating", productWith(null), "en", { request: { design_mode: true } }),
    );
    expect(await page.getAttribute("[data-rv-stars]", "data-rv-sample")).toBe("");
    expect(await page.getAttribute("[role=img]", "aria-label")).toBe("4.6 out of 5 stars, 128 reviews");
  });
});

describe("card-stars block", () => {
  it.each(LOCALES)("reads reviews.rating and reviews.rating_count (%s)", async (locale) => {
    const { page } = await open(await render("card-stars", productWith(snapshot(1)), locale));
    const label = await page.getAttribute("[data-rv-card-stars] [role=img]", "aria-label");
    expect(label).toBe(
      {
        en: "5.0 out of 5 stars, 1 review",
        "pt-BR": "5,0 de 5 estrelas, 1 avaliação",
        es: "5,0 de 5 estrellas, 1 reseña",
      }[locale],
    );
  });
  it("renders nothing without the standard metafields", async () => {
    expect((await render("card-stars", productWith(null))).trim()).toBe("");
    expect((await render("card-stars", productWith(snapshot(0)))).trim()).toBe("");
  });
});

describe("badges style themselves before they are parsed", () => {
  // A <style> after the element lets the browser paint the element unstyled when the page arrives
  // in chunks: the badge's rules must come first (as Dawn's blocks put stylesheet_tag first).
  const appWith = (data: object) =>
    appDrop([
      {
        namespace: "reviews",
        key: "shop",
        type: "json",
        value: JSON.stringify({
          v: 1,
          proxyPath: "/apps/reviews",
          store: null,
          topRated: { skus: [], label: "" },
          rateUrl: null,
          customer: "acme",
          ...data,
        }),
      },
    ]);
  const topRated = { topRated: { skus: [String(PRODUCT_ID)], label: "Top rated" } };

  /** For the first element matching `selector`: whether a <style> holding `rule` comes before it, and its display. */
  async function styledFirst(html: string, selector: string, rule: string) {
    const { page } = await open(html);
    return page.evaluate(
      ([sel, r]) => {
        const el = document.querySelector(sel)!;
        const styles = [...document.querySelectorAll("style")].filter((s) => s.textContent!.includes(r));
        return {
          styleBefore: styles.some((s) => Boolean(s.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)),
          display: getComputedStyle(el).display,
        };
      },
      [selector, rule] as const,
    );
  }

  it("the top-rated block", async () => {
    const html = await render("top-rated", productWith(snapshot(5)), "en", { app: appWith(topRated) });
    expect(await styledFirst(html, ".rv-top-rated", ".rv-top-rated{")).toEqual({
      styleBefore: true,
      display: "inline-flex",
    });
  });

  it("the top-rated badge on a card", async () => {
    const html = await render("card-stars", productWith(snapshot(5)), "en", {
      app: appWith(topRated),
      block: { id: "b1", settings: { show_top_rated: true } },
    });
    expect(await styledFirst(html, ".rv-top-rated", ".rv-top-rated{")).toEqual({
      styleBefore: true,
      display: "inline-flex",
    });
  });

  it("the store badge", async () => {
    const html = await render("store-badge", productWith(null), "en", {
      app: appWith({ store: { avg: 4.5, count: 12 } }),
    });
    expect(await styledFirst(html, ".rv-store-badge__inner", ".rv-store-badge__inner{")).toEqual({
      styleBefore: true,
      display: "inline-flex",
    });
  });
});

describe("reviews block", () => {
  it.each(LOCALES)("renders 500 reviews: summary, histogram, first page, 100 pages (%s)", async (locale) => {
    const s = snapshot(500);
    const { page } = await open(await render("reviews", productWith(s), locale));
    const r = (await readReviews(page))!;
    expect(r.id).toBe(`rv-reviews-${PRODUCT_ID}`);
    const sep = locale === "en" ? "." : ",";
    expect(r.avg).toBe(s.avg.toFixed(1).replace(".", sep));
    expect(r.bars.map((b) => b.rating)).toEqual(["5", "4", "3", "2", "1"]);
    expect(r.bars[0].name).toContain(String(s.composition[0].count));
    expect(r.bars.every((b) => b.pressed === "false")).toBe(true);
    expect(r.page).toEqual({ page: 1, pages: 100, total: 500 });
    expect(r.reviews.map((x) => x.name)).toEqual(
      s.reviews.map((x) => x.name || { en: "Anonymous", "pt-BR": "Anônimo", es: "Anónimo" }[locale]),
    );
    expect(r.pageButtons.map((b) => b.goto)).toEqual(["0", "1", "2", "100", "2"]);
    expect(r.pageButtons.find((b) => b.current === "page")?.goto).toBe("1");
    // reviews.js, added by the block once the page has painted (snippet after-paint-script)
    expect(r.scripts).toEqual(["reviews.js"]);
  });

  it("renders one review as one page without page controls", async () => {
    const { page } = await open(await render("reviews", productWith(snapshot(1))));
    const r = (await readReviews(page))!;
    expect(r.reviews).toHaveLength(1);
    expect(r.page).toEqual({ page: 1, pages: 1, total: 1 });
    expect(r.pageButtons).toEqual([]);
    expect(r.starsLabel).toBe("5.0 out of 5 stars, 1 review");
  });

  it("shows 'no reviews yet' and no JSON-LD at zero reviews or without the metafield", async () => {
    for (const product of [productWith(snapshot(0)), productWith(null)]) {
      const { page } = await open(await render("reviews", product, "pt-BR"));
      const r = (await readReviews(page))!;
      expect(r.empty).toBe("Nenhuma avaliação ainda.");
      expect(r.jsonld).toEqual([]);
      expect(r.reviews).toEqual([]);
    }
  });

  it("shows sample reviews in the theme editor on a product without reviews, with no JSON-LD", async () => {
    const { page } = await open(await render("reviews", productWith(null), "es", { request: { design_mode: true } }));
    const r = (await readReviews(page))!;
    expect(r.sample).toBe(true);
    expect(r.reviews.map((x) => x.name)).toEqual(["Ana S.", "Marcos T.", "Lucía R."]);
    expect(r.avg).toBe("4,6");
    expect(r.jsonld).toEqual([]);
    // Sample reviews have no original text, media or source link beyond what they show.
    expect(await page.locator("details, [data-rv-media]").count()).toBe(0);
    expect(await page.locator("[data-rv-reply]").count()).toBe(1);
  });

  it("uses the reviews-per-page setting and never more than the snapshot's page", async () => {
    const s = snapshot(40, { pageSize: 10 });
    const three = (await readReviews(
      (await open(await render("reviews", productWith(s), "en", { block: { id: "b1", settings: { per_page: 3 } } })))
        .page,
    ))!;
    expect(three.reviews).toHaveLength(3);
    expect(three.page).toEqual({ page: 1, pages: 14, total: 40 });
    const twenty = (await readReviews(
      (await open(await render("reviews", productWith(s), "en", { block: { id: "b1", settings: { per_page: 20 } } })))
        .page,
    ))!;
    expect(twenty.reviews).toHaveLength(10);
    expect(twenty.page).toEqual({ page: 1, pages: 4, total: 40 });
  });

  it("pages by what a shortened snapshot holds, so the proxy's page 2 starts where page 1 ends", async () => {
    const s = snapshot(40, { pageSize: 10, shortened: true });
    s.reviews = s.reviews.slice(0, 4);
    const html = await render("reviews", productWith(s));
    const r = (await readReviews((await open(html)).page))!;
    expect(r.reviews).toHaveLength(4);
    expect(r.page).toEqual({ page: 1, pages: 10, total: 40 });
    expect(html).toContain('data-page-size="4"');
  });

  it("leaves out the parts the merchant switched off", async () => {
    const settings = {
      show_histogram: false,
      show_summary: false,
      show_attributes: false,
      show_recommended: false,
      show_controls: false,
      structured_data: false,
    };
    const { page } = await open(
      await render("reviews", productWith(snapshot(12)), "en", { block: { id: "b1", settings } }),
    );
    const present = await page.evaluate(() =>
      [
        "[data-rv-rating]",
        "[data-rv-ai-summary]",
        "[data-rv-attributes]",
        "[data-rv-recommended]",
        "[data-rv-controls]",
        "script[type='application/ld+json']",
      ].filter((s) => document.querySelector(s)),
    );
    expect(present).toEqual([]);
  });
});

describe("JSON-LD", () => {
  it.each(LOCALES)(
    "attaches AggregateRating and the visible reviews to the theme's Product node, equal to what is shown (%s)",
    async (locale) => {
      const s = snapshot(500);
      const { page } = await open(await render("reviews", productWith(s), locale));
      const r = (await readReviews(page))!;
      expect(r.jsonld).toHaveLength(1);
      const node = r.jsonld[0];
      expect(node["@id"]).toBe(`${shop.url}/products/stoneware-mug#product`);
      // Never a second Product: the node has no type of its own, only the theme's node's @id.
      expect(node["@type"]).toBeUndefined();
      expect(node.aggregateRating).toEqual({
        "@type": "AggregateRating",
        ratingValue: Number(r.avg!.replace(",", ".")),
        reviewCount: r.page!.total,
        bestRating: 5,
        worstRating: 1,
      });
      expect(node.review).toHaveLength(r.reviews.length);
      node.review.forEach(
        (
          x: {
            author: { name: string };
            reviewBody: string;
            reviewRating: { ratingValue: number };
            datePublished: string;
          },
          i: number,
        ) => {
          expect(x.author.name).toBe(r.reviews[i].name);
          expect(x.reviewBody).toBe(r.reviews[i].text ?? "");
          expect(r.reviews[i].rating).toContain(`${x.reviewRating.ratingValue}${locale === "en" ? "." : ","}0`);
          expect(r.reviews[i].date!.startsWith(x.datePublished)).toBe(true);
        },
      );
    },
  );

  it("takes the Product node's @id from the block setting when the theme uses another", async () => {
    const { page } = await open(
      await render("reviews", productWith(snapshot(3)), "en", {
        block: { id: "b1", settings: { product_node_id: "https://x.test/p#main-product" } },
      }),
    );
    expect((await readReviews(page))!.jsonld[0]["@id"]).toBe("https://x.test/p#main-product");
  });
});

describe("hostile review content stays text", () => {
  const corpus = [
    `<script>window.__xss=(window.__xss||[]).concat('script')</script>`,
    `<img src=x onerror="window.__xss=(window.__xss||[]).concat('img')">`,
    `"><svg onload="window.__xss=(window.__xss||[]).concat('svg')">`,
    `' onmouseover='alert(1)`,
    `</script><script>alert('jsonld')</script>`,
    `{{ 'liquid' | append: 'injection' }} {% render 'reviews-error' %}`,
    `<a href="javascript:alert(1)">x</a>&amp;&lt;`,
    "\u2028\u2029<!--",
  ];
  const hostile = corpus.join(" ");
  const evil = "javascript:window.__xss=(window.__xss||[]).concat('url')";

  it.each(LOCALES)("in names, texts, replies, originals, sources, topics, summaries and URLs (%s)", async (locale) => {
    const reviews = corpus.map((c, i) =>
      review(i, {
        name: c,
        // A date that is not one: `| date` hands it back as it is.
        date: i % 2 ? c : "2026-10-01T00:00:00Z",
        text: hostile,
        reply: { text: c, date: "2026-10-01T00:00:00Z" },
        original: c,
        source: { name: c, logo: evil, url: evil },
        pictures: [
          { url: evil, thumb: evil },
          {
            url: `https://media.reviews.test/p/${i}.jpg" onerror="window.__xss=1`,
            thumb: "https://media.reviews.test/t/x.jpg",
          },
        ],
        video: { url: evil, thumb: evil },
      }),
    );
    const s = snapshot(corpus.length, {
      pageSize: corpus.length,
      reviews,
      summary: { text: hostile, positive: corpus, negative: corpus },
      topics: corpus.map((name) => ({ name, count: 1 })),
      sources: corpus.map((name, i) => ({ id: `${name}${i}`, name, logo: null })),
      attributes: corpus.map((name) => ({ name, type: "stars", avg: 4, scaleMin: 1, scaleMax: 5, pct: 75 })),
    });
    const html = await render("reviews", productWith(s), locale, { block: { id: "b1", settings: { per_page: 20 } } });
    const { page, executed } = await open(html);
    await page.hover("product-reviews").catch(() => undefined);
    expect(await executed()).toEqual([]);
    const r = (await readReviews(page))!;
    expect(r.reviews.map((x) => x.name)).toEqual(corpus.map((c) => c.trim() || null));
    expect(r.reviews.every((x) => x.text === hostile)).toBe(true);
    const dom = await page.evaluate(() => ({
      handlers: [...document.querySelectorAll("*")].flatMap((el) =>
        [...el.attributes].filter((a) => a.name.startsWith("on")).map((a) => `${el.tagName}.${a.name}`),
      ),
      urls: [...document.querySelectorAll("[href],[src]")]
        .map((el) => el.getAttribute("href") ?? el.getAttribute("src")!)
        .filter((u) => !/^(https?:|#|\/ext\/)/.test(u)),
      // The block's own loader (after-paint-script) is the one script without a type; content never adds one.
      inlineScripts: [...document.querySelectorAll("script:not([src])")].map(
        (s) => s.getAttribute("type") ?? (s.textContent?.includes("window.rvScripts") ? "after-paint-script" : "other"),
      ),
      topics: [...document.querySelectorAll("[data-rv-topic]")].map((b) => b.getAttribute("data-rv-topic")),
      summary: document.querySelector(".rv-ai__text")?.textContent,
    }));
    expect(dom.handlers).toEqual([]);
    expect(dom.urls).toEqual([]);
    expect(dom.inlineScripts).toEqual(["application/ld+json", "after-paint-script"]);
    expect(dom.topics).toEqual(corpus);
    expect(dom.summary).toBe(hostile);
    // The JSON-LD parsed back carries the same text.
    expect(r.jsonld[0].review.map((x: { reviewBody: string }) => x.reviewBody)).toEqual(reviews.map(() => hostile));
  });
});

describe("reviews-page snippet as the app proxy renders it", () => {
  it.each(LOCALES)("draws a later page with its position and page controls (%s)", async (locale) => {
    const reviews = Array.from({ length: 5 }, (_, i) => review(10 + i));
    const html = await theme.renderSnippet(
      "reviews-page",
      { reviews, page: 3, pages: 100, total: 500, page_size: 5, sort: "created,desc" },
      locale,
    );
    expect(html).not.toContain("translation missing");
    const { page } = await open(`<product-reviews>${html}</product-reviews>`);
    const r = (await readReviews(page))!;
    expect(r.page).toEqual({ page: 3, pages: 100, total: 500 });
    expect(r.reviews).toHaveLength(5);
    expect(r.pageButtons.map((b) => b.goto)).toEqual(["2", "1", "2", "3", "4", "100", "4"]);
    expect(r.pageButtons.find((b) => b.current)?.goto).toBe("3");
    const status = await page.textContent("[data-rv-page-status]");
    expect(status).toBe(
      { en: "Reviews 11 to 15 of 500", "pt-BR": "Avaliações 11 a 15 de 500", es: "Reseñas 11 a 15 de 500" }[locale],
    );
    expect(await page.getAttribute("[data-rv-page]", "data-sort")).toBe("created,desc");
  });

  it("says no review matches, with a way to clear the filters", async () => {
    const html = await theme.renderSnippet(
      "reviews-page",
      { reviews: [], page: 1, pages: 1, total: 0, page_size: 5, filtered: true },
      "en",
    );
    const { page } = await open(html);
    expect(await page.textContent("[data-rv-page-status]")).toBe("No reviews match these filters.");
    expect(await page.textContent("[data-rv-clear]")).toBe("Clear filters");
  });

  it("renders the error fragment with a retry", async () => {
    const { page } = await open(await theme.renderSnippet("reviews-error", {}, "pt-BR"));
    expect(await page.getAttribute("[data-rv-error]", "role")).toBe("alert");
    expect(await page.textContent("[data-rv-retry]")).toBe("Tentar de novo");
  });
});
