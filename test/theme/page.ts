import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createThemeRenderer, type ThemeRenderer } from "../../app/.server/storefront/liquid";
import { EXTENSION_DIR, MEDIA_HOST, PRODUCT_ID, app, productWith, review, shop } from "./fixtures";
import type { Snapshot } from "../../app/.server/theme/snapshot";

// A plain product page holding the extension's blocks, served to Chromium through request routing:
// the extension's assets from disk, review media as generated images, and the app proxy's reviews
// endpoint answered by the reviews-page snippet (what the real proxy renders), so the block script
// can be driven and looked at without the rest of the stack.

export const ORIGIN = "https://acme-ceramics.test";

export function themeForPages(): ThemeRenderer {
  return createThemeRenderer({ extensionDir: EXTENSION_DIR, assetBaseUrl: "/ext", cache: false });
}

export async function productPage(
  theme: ThemeRenderer,
  s: Snapshot | null,
  locale = "en",
  settings: Record<string, unknown> = {},
  designMode = false,
  blocks = ["star-rating", "reviews"],
) {
  const product = productWith(s);
  const ctx = (id: string) => ({ product, shop, app, block: { id, settings }, request: { design_mode: designMode } });
  const stars = blocks.includes("star-rating") ? await theme.renderBlock("star-rating", ctx("stars1"), locale) : "";
  const reviews = blocks.includes("reviews") ? await theme.renderBlock("reviews", ctx("reviews1"), locale) : "";
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Stoneware Mug</title>
<style>body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#121212;background:#fff}main{max-width:1200px;margin:0 auto;padding:24px 20px}.product{display:grid;gap:24px}@media(min-width:750px){.product{grid-template-columns:1fr 1fr}}.media{aspect-ratio:1;background:#e8e3dc;border-radius:8px}h1{margin:0 0 4px;font-size:28px}.price{font-size:18px;margin:8px 0}</style>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","@id":"${shop.url}/products/stoneware-mug#product","name":"Stoneware Mug"}</script>
</head><body><main><div class="product"><div class="media"></div><div><h1>Stoneware Mug</h1>${stars}<p class="price">$24.00</p><p>Hand-glazed stoneware, 350 ml.</p></div></div>${reviews}</main></body></html>`;
}

function mediaSvg(path: string) {
  const hue = [...path].reduce((a, c) => a + c.charCodeAt(0), 0) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600"><rect width="600" height="600" fill="hsl(${hue} 35% 70%)"/><circle cx="300" cy="330" r="150" fill="hsl(${hue} 30% 45%)"/><rect x="420" y="260" width="60" height="120" rx="30" fill="none" stroke="hsl(${hue} 30% 45%)" stroke-width="24"/></svg>`;
}

export interface ProxyCall {
  url: URL;
}

/** Serves the page, its assets, media, and the proxy's reviews endpoint (page N of `total` reviews). */
export async function servePage(
  page: Page,
  theme: ThemeRenderer,
  html: string,
  opts: { total: number; fail?: () => boolean; calls?: ProxyCall[] },
) {
  await page.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.origin === ORIGIN && url.pathname === "/products/stoneware-mug")
      return route.fulfill({ body: html, contentType: "text/html" });
    if (url.origin === ORIGIN && url.pathname.startsWith("/ext/")) {
      const name = decodeURIComponent(url.pathname.slice(5));
      const type = name.endsWith(".css") ? "text/css" : "text/javascript";
      return route.fulfill({ body: readFileSync(join(EXTENSION_DIR, "assets", name)), contentType: type });
    }
    if (url.origin === MEDIA_HOST) {
      if (url.pathname.endsWith(".mp4")) return route.fulfill({ status: 404, body: "" });
      return route.fulfill({ body: mediaSvg(url.pathname), contentType: "image/svg+xml" });
    }
    if (url.origin === ORIGIN && url.pathname === `/apps/reviews/products/${PRODUCT_ID}/reviews`) {
      opts.calls?.push({ url });
      if (opts.fail?.())
        return route.fulfill({
          status: 502,
          body: await theme.renderSnippet("reviews-error", {}, url.searchParams.get("locale") ?? "en"),
          contentType: "text/html",
        });
      const pageNo = Number(url.searchParams.get("page") ?? 1);
      const size = Number(url.searchParams.get("pageSize") ?? 5);
      const filtered = ["rating", "filterMedia", "hasText", "verified", "topics", "sourceStore"].some((k) =>
        url.searchParams.has(k),
      );
      const total = filtered ? Math.min(opts.total, 7) : opts.total;
      const pages = Math.max(1, Math.ceil(total / size));
      const start = (pageNo - 1) * size;
      const reviews = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) =>
        review(start + i + (filtered ? 1 : 0)),
      );
      const body = await theme.renderSnippet(
        "reviews-page",
        { reviews, page: pageNo, pages, total, page_size: size, sort: url.searchParams.get("sort"), filtered },
        url.searchParams.get("locale") ?? "en",
      );
      return route.fulfill({ body, contentType: "text/html", headers: { "cache-control": "no-store" } });
    }
    return route.abort();
  });
}
