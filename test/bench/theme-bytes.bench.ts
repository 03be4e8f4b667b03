import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { appDrop } from "../../app/.server/storefront/liquid";
import { EXTENSION_DIR, productWith, shop, snapshot } from "../theme/fixtures";
import { ORIGIN, productPage, servePage, themeForPages } from "../theme/page";
import type { BenchResult } from "./report";

// What the theme blocks cost a shopper before any interaction: the requests a product page with the
// blocks makes for the extension's files, and their gzip bytes by kind. The star block must cost no
// script and no request at all; the reviews block's script and stylesheet stay inside the budget
// (10 KB JS, 8 KB CSS, gzip). Measured in Chromium on a page rendered by the Liquid engine.

const KB = 1024;

export async function runThemeBytesBench(): Promise<BenchResult[]> {
  const theme = themeForPages();
  const browser = await launchChromium();
  try {
    const measure = async (html: string) => {
      const page = await browser.newPage({ userAgent: USER_AGENT });
      await servePage(page, theme, html, { total: 128 });
      const loaded: string[] = [];
      page.on("requestfinished", (r) => {
        const url = new URL(r.url());
        if (url.origin === ORIGIN && url.pathname.startsWith("/ext/"))
          loaded.push(decodeURIComponent(url.pathname.slice(5)));
      });
      let proxyCalls = 0;
      page.on("request", (r) => void (r.url().includes("/apps/") && proxyCalls++));
      await page.goto(`${ORIGIN}/products/stoneware-mug`, { waitUntil: "networkidle" });
      await blockScriptsRan(page);
      await page.close();
      const gz = (ext: string) =>
        loaded
          .filter((f) => f.endsWith(ext))
          .reduce((sum, f) => sum + gzipSync(readFileSync(join(EXTENSION_DIR, "assets", f)), { level: 9 }).length, 0);
      return { files: loaded, js: gz(".js"), css: gz(".css"), proxyCalls };
    };
    const s = snapshot(128);
    const starsOnly = await measure(await productPage(theme, s, "en", {}, false, ["star-rating"]));
    const full = await measure(await productPage(theme, s, "en"));
    const liquidBytes = filesUnder(EXTENSION_DIR)
      .filter((f) => f.endsWith(".liquid"))
      .reduce((sum, f) => sum + statSync(f).size, 0);
    const lightbox = gzipSync(readFileSync(join(EXTENSION_DIR, "assets", "reviews-lightbox.js")), { level: 9 }).length;
    const form = gzipSync(readFileSync(join(EXTENSION_DIR, "assets", "reviews-form.js")), { level: 9 }).length;
    // The rating modal app embed before it opens: its markup in every page, and its deferred script.
    const embedApp = appDrop([
      {
        namespace: "reviews",
        key: "shop",
        type: "json",
        value: JSON.stringify({
          v: 1,
          proxyPath: "/apps/reviews",
          store: null,
          topRated: { skus: [], label: "" },
          rateUrl: "https://rate.example",
          customer: "acme",
          carousel: [],
        }),
      },
    ]);
    const embedHtml = await theme.renderBlock(
      "rating-modal",
      { shop, app: embedApp, block: { id: "rating-modal" }, request: { design_mode: false } },
      "en",
    );
    // Its inline loader is part of the markup; the script itself loads only where a modal opens.
    const embedMarkup = gzipSync(Buffer.from(embedHtml), { level: 9 }).length;
    const embedScript = gzipSync(readFileSync(join(EXTENSION_DIR, "assets", "rating-modal.js")), { level: 9 }).length;
    // A collection page: card stars for a few products and the embed on, as a shopper loads it.
    const cardCtx = (id: string) => ({
      product: productWith(s),
      shop,
      app: embedApp,
      block: { id, settings: {} },
      request: { design_mode: false, page_type: "collection" },
    });
    const cards = await Promise.all(["c1", "c2", "c3"].map((id) => theme.renderBlock("card-stars", cardCtx(id), "en")));
    const collection = await measure(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>All</title></head><body><main>${cards.join("")}</main>${embedHtml}</body></html>`,
    );
    return [
      {
        scenario: "theme blocks: bytes before interaction",
        figures: {
          "star block: extension requests": starsOnly.files.length,
          "star block: JS gzip bytes": starsOnly.js,
          "reviews block: files loaded": full.files.join(", "),
          "reviews block: JS gzip bytes": full.js,
          "reviews block: CSS gzip bytes": full.css,
          "lightbox script on first use, gzip bytes": lightbox,
          "review form script on 'Write a review', gzip bytes": form,
          "proxy requests at load": full.proxyCalls,
          "all Liquid in the extension, bytes": liquidBytes,
          "rating modal embed before it opens: markup with its inline loader, gzip bytes": embedMarkup,
          "rating modal script, loaded only where it opens, gzip bytes": embedScript,
          "collection page with card stars and the modal embed: extension files loaded":
            collection.files.join(", ") || "none",
        },
        targets: {
          "star block JS bytes (gzip)": { value: starsOnly.js, limit: 0, ok: starsOnly.js === 0 },
          "star block requests": { value: starsOnly.files.length, limit: 0, ok: starsOnly.files.length === 0 },
          "reviews block JS before interaction, KB gzip": {
            value: round(full.js / KB),
            limit: 10,
            ok: full.js <= 10 * KB,
          },
          "reviews block CSS, KB gzip": { value: round(full.css / KB), limit: 8, ok: full.css <= 8 * KB },
          "review form script loaded before 'Write a review'": {
            value: full.files.filter((f) => f === "reviews-form.js").length,
            limit: 0,
            ok: !full.files.includes("reviews-form.js"),
          },
          "review form script, KB gzip": { value: round(form / KB), limit: 10, ok: form <= 10 * KB },
          "extension Liquid, KB": { value: round(liquidBytes / KB), limit: 100, ok: liquidBytes <= 100 * KB },
          "rating modal embed before it opens, KB gzip": {
            value: round(embedMarkup / KB),
            limit: 2,
            ok: embedMarkup <= 2 * KB,
          },
          "card stars with the modal embed on: app JS gzip bytes": {
            value: collection.js,
            limit: 0,
            ok: collection.js === 0 && collection.files.length === 0,
          },
        },
      },
    ];
  } finally {
    await browser.close();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)],
  );
}

const round = (n: number) => Math.round(n * 100) / 100;
