import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { appDrop, createThemeRenderer, productDrop, type ThemeRenderer } from "../../app/.server/storefront";
import {
  accountPage,
  collectionPage,
  orderPage,
  storeReviewsPage,
  esc,
  layout,
  LOCAL_CUSTOMERS,
  productImageSvg,
  productJsonLd,
  productPage,
  type LocalCustomer,
} from "./pages";
import { forwardToApp } from "./proxy-forward";
import { createStoreReader, type StoreProduct, type StoreReader } from "./store-reader";
import { localePath, splitLocale, str, type Locale } from "./strings";

// The local storefront: a real HTTP server that draws product and collection pages of the simulated
// store with the theme app extension's blocks rendered by the Liquid engine, serves the extension's
// assets the way Shopify's CDN does (gzip, immutable), and plays Shopify's app proxy for
// `/apps/reviews/...` (signed, cookies stripped). See README.md in this folder.

export interface LocalStorefrontOptions {
  port?: number;
  host?: string;
  /** The simulated store's Admin GraphQL endpoint and token. */
  storeGraphqlUrl: string;
  storeAccessToken: string;
  shop: string;
  apiVersion: string;
  /** The app's origin; the proxy url is `<appUrl>/apps/reviews`. */
  appUrl: string;
  /** The app's client secret: Shopify signs proxied requests with it. */
  apiSecret: string;
  extensionDir?: string;
  /** Where the storefront serves the app proxy (merchants may rename it). */
  proxyPath?: string;
  shopName?: string;
}

export interface LocalStorefront {
  origin: string;
  reader: StoreReader;
  close(): Promise<void>;
}

export const ASSET_BASE = "/cdn/shop/extensions/reviews-theme/assets";
/**
 * The theme app extension's blocks and embeds this storefront's theme renders (with every block on),
 * as JSON `{ on: [handle…] }`: what a merchant's theme would have once the blocks were added, read
 * by the App Bridge stand-in (sandbox/app-bridge) to answer `shopify.app.extensions()` offline.
 */
export const THEME_BLOCKS_PATH = "/__local/theme-blocks";
const CUSTOMER_COOKIE = "local_storefront_customer";
const CONTENT_TYPES: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

/**
 * Which blocks a page carries: `?blocks=none`, `?blocks=stars` and `?blocks=reviews` (stars and the reviews block, no
 * app embed) exist for measurements.
 */
type BlockChoice = "all" | "reviews" | "stars" | "none";

// What the theme places with every block on. The product page's blocks with a stylesheet or script
// (top-rated has neither), the app embeds, the collection's, the store reviews page's and the
// account pages' blocks.
const PRODUCT_BLOCKS_WITH_ASSETS = ["star-rating", "reviews", "questions"];
const EMBEDS = ["rating-modal"];
const RENDERED_BLOCKS = [
  ...PRODUCT_BLOCKS_WITH_ASSETS,
  "top-rated",
  "card-stars",
  "store-badge",
  "store-carousel",
  "store-reviews",
  "order-reviews",
  ...EMBEDS,
];

export async function startLocalStorefront(opts: LocalStorefrontOptions): Promise<LocalStorefront> {
  const extensionDir = opts.extensionDir ?? join(process.cwd(), "extensions", "reviews-theme");
  const proxyPath = opts.proxyPath ?? "/apps/reviews";
  const shopName = opts.shopName ?? "Demo Shop";
  const reader = createStoreReader({
    graphqlUrl: opts.storeGraphqlUrl,
    accessToken: opts.storeAccessToken,
    shop: opts.shop,
    apiVersion: opts.apiVersion,
  });
  // Shopify puts a placed block's schema stylesheet and script in the page's <head> (once each,
  // the script deferred); the layout does the same with `assetTags`.
  const renderer: ThemeRenderer = createThemeRenderer({ extensionDir, assetBaseUrl: ASSET_BASE, injectAssets: false });
  const assetTags = (handles: string[]) => {
    const css = new Set<string>();
    const js = new Set<string>();
    for (const h of handles) {
      const schema = renderer.blockSchema(h);
      if (schema.stylesheet) css.add(renderer.assetUrl(schema.stylesheet));
      if (schema.javascript) js.add(renderer.assetUrl(schema.javascript));
    }
    return [
      ...[...css].map((href) => `<link rel="stylesheet" href="${esc(href)}" media="all">`),
      ...[...js].map((src) => `<script src="${esc(src)}" defer></script>`),
    ].join("\n");
  };
  const assets = new Map<string, { raw: Buffer; gz: Buffer; type: string }>();
  let origin = "";

  const customerOf = (req: IncomingMessage): LocalCustomer | null => {
    const id = /(?:^|;\s*)local_storefront_customer=(\d+)/.exec(req.headers.cookie ?? "")?.[1];
    return LOCAL_CUSTOMERS.find((c) => c.id === id) ?? null;
  };

  const pageContext = async (locale: Locale, customer: LocalCustomer | null, pathname: string) => ({
    shop: {
      name: shopName,
      url: origin,
      permanent_domain: opts.shop,
      locale,
      money_format: (await reader.money()).format,
    },
    customer: customer
      ? {
          id: Number(customer.id),
          first_name: customer.firstName,
          last_name: customer.lastName,
          name: `${customer.firstName} ${customer.lastName}`,
        }
      : null,
    app: appDrop(await reader.appMetafields()),
    // Shopify's `routes` for the page's language (root_url is "/" or "/pt-BR", no trailing slash).
    routes: {
      root_url: locale === "en" ? "/" : `/${locale}`,
      account_url: localePath(locale, "/account"),
    },
    request: {
      design_mode: false,
      page_type: "product",
      path: pathname,
      host: new URL(origin).host,
      locale: { iso_code: locale },
    },
  });

  // App embeds switched on in this theme (the rating modal); none on the measurement pages
  // (`?blocks=none|stars`).
  const embeds = async (ctx: Awaited<ReturnType<typeof pageContext>>, locale: Locale, blocks: BlockChoice) => {
    if (blocks !== "all") return { head: "", bodyEnd: "" };
    const html = await Promise.all(
      EMBEDS.map((handle) => renderer.renderBlock(handle, { ...ctx, block: { id: handle } }, locale)),
    );
    return { head: assetTags(EMBEDS), bodyEnd: html.join("\n") };
  };

  async function product(
    res: ServerResponse,
    handle: string,
    locale: Locale,
    customer: LocalCustomer | null,
    pathname: string,
    blocks: BlockChoice,
  ) {
    const p = await reader.product(handle);
    if (!p) return notFound(res, locale, customer, pathname);
    const ctx = await pageContext(locale, customer, pathname);
    const drop = productDrop({
      id: p.id,
      handle: p.handle,
      title: p.title,
      url: `/products/${p.handle}`,
      metafields: p.metafields,
    });
    const block = async (handle: string) =>
      renderer.renderBlock(handle, { ...ctx, product: drop, block: { id: handle } }, locale);
    const stars = blocks === "none" ? "" : await block("star-rating");
    const reviews = blocks === "all" || blocks === "reviews" ? await block("reviews") : "";
    const questions = blocks === "all" ? await block("questions") : "";
    const topRated = blocks === "all" ? await block("top-rated") : "";
    const placed =
      blocks === "all"
        ? PRODUCT_BLOCKS_WITH_ASSETS
        : blocks === "reviews"
          ? ["star-rating", "reviews"]
          : blocks === "stars"
            ? ["star-rating"]
            : [];
    const embed = await embeds(ctx, locale, blocks);
    const head = `${productJsonLd(p, origin, (await reader.money()).currencyCode)}\n${assetTags(placed)}\n${embed.head}`;
    const html = layout(
      { locale, shopName, path: `/products/${p.handle}`, customer, title: p.title, head, bodyEnd: embed.bodyEnd },
      productPage(p, locale, { stars, reviews, questions, topRated }, await reader.money()),
    );
    send(res, 200, html, "text/html; charset=utf-8", { "Cache-Control": "no-store" });
  }

  let listing: { at: number; products: Promise<StoreProduct[]> } | null = null;
  async function collection(res: ServerResponse, locale: Locale, customer: LocalCustomer | null, blocks: BlockChoice) {
    // Listing costs Admin API points in the simulated store (Shopify's own renderer pays nothing):
    // read 12 products at most every 10 s.
    if (!listing || Date.now() - listing.at > 10_000) listing = { at: Date.now(), products: reader.products(12) };
    const products = await listing.products.catch((e: unknown) => {
      listing = null;
      throw e;
    });
    const ctx = await pageContext(locale, customer, "/collections/all");
    const cards = await Promise.all(
      products.map(async (p) => ({
        product: p,
        stars:
          blocks === "none"
            ? ""
            : await renderer.renderBlock(
                "card-stars",
                {
                  ...ctx,
                  request: { ...ctx.request, page_type: "collection" },
                  product: productDrop({ id: p.id, handle: p.handle, title: p.title, metafields: p.metafields }),
                  block: { id: `card-stars-${p.id}` },
                },
                locale,
              ),
      })),
    );
    const embed = await embeds(ctx, locale, blocks);
    const head = blocks === "none" ? "" : `${assetTags(["card-stars"])}\n${embed.head}`;
    const badge =
      blocks === "none"
        ? ""
        : await renderer.renderBlock(
            "store-badge",
            { ...ctx, block: { id: "store-badge", settings: { link: localePath(locale, "/pages/store-reviews") } } },
            locale,
          );
    send(
      res,
      200,
      layout(
        {
          locale,
          shopName,
          path: "/collections/all",
          customer,
          title: str(locale, "catalog"),
          head,
          bodyEnd: embed.bodyEnd,
        },
        collectionPage(locale, cards, badge, await reader.money()),
      ),
      "text/html; charset=utf-8",
      { "Cache-Control": "no-store" },
    );
  }

  async function storeReviews(
    res: ServerResponse,
    locale: Locale,
    customer: LocalCustomer | null,
    blocks: BlockChoice,
  ) {
    const ctx = await pageContext(locale, customer, "/pages/store-reviews");
    const page = { ...ctx, request: { ...ctx.request, page_type: "page" } };
    const block = (handle: string) => renderer.renderBlock(handle, { ...page, block: { id: handle } }, locale);
    const [badge, carousel, list] = await Promise.all([
      block("store-badge"),
      block("store-carousel"),
      block("store-reviews"),
    ]);
    const embed = await embeds(ctx, locale, blocks);
    const head = `${assetTags(["store-carousel", "store-reviews"])}\n${embed.head}`;
    send(
      res,
      200,
      layout(
        {
          locale,
          shopName,
          path: "/pages/store-reviews",
          customer,
          title: str(locale, "storeReviews"),
          head,
          bodyEnd: embed.bodyEnd,
        },
        storeReviewsPage(locale, { badge, carousel, list }),
      ),
      "text/html; charset=utf-8",
      { "Cache-Control": "no-store" },
    );
  }

  // Classic customer account pages (Shopify sends a logged-out shopper to log in; here the page
  // says to pick a customer). The order reviews block sits under the history and on an order page.
  async function account(
    res: ServerResponse,
    locale: Locale,
    customer: LocalCustomer | null,
    path: string,
    orderId: string | null,
    blocks: BlockChoice,
  ) {
    const ctx = await pageContext(locale, customer, path);
    const order = customer && orderId ? await reader.customerOrder(customer.id, orderId) : null;
    if (orderId && !order) return notFound(res, locale, customer, path);
    const page = {
      ...ctx,
      request: { ...ctx.request, page_type: order ? "customers/order" : "customers/account" },
      ...(order ? { order: { id: Number(order.id), name: order.name } } : {}),
    };
    const block = customer
      ? await renderer.renderBlock("order-reviews", { ...page, block: { id: "order-reviews" } }, locale)
      : "";
    const embed = await embeds(ctx, locale, blocks);
    const head = customer ? `${assetTags(["order-reviews"])}\n${embed.head}` : "";
    const content = order
      ? orderPage(locale, order, block)
      : accountPage(locale, customer, customer ? await reader.customerOrders(customer.id) : [], block);
    const title = order ? order.name : str(locale, "account");
    send(
      res,
      200,
      layout({ locale, shopName, path, customer, title, head, bodyEnd: customer ? embed.bodyEnd : "" }, content),
      "text/html; charset=utf-8",
      { "Cache-Control": "no-store" },
    );
  }

  function notFound(res: ServerResponse, locale: Locale, customer: LocalCustomer | null, path: string) {
    send(
      res,
      404,
      layout(
        { locale, shopName, path, customer, title: str(locale, "notFound") },
        `<h1>${esc(str(locale, "notFound"))}</h1>`,
      ),
      "text/html; charset=utf-8",
    );
  }

  async function asset(req: IncomingMessage, res: ServerResponse, name: string) {
    if (!/^[A-Za-z0-9._-]+$/.test(name)) return send(res, 404, "not found", "text/plain");
    let a = assets.get(name);
    if (!a) {
      const raw = await readFile(join(extensionDir, "assets", name)).catch(() => null);
      if (!raw) return send(res, 404, "not found", "text/plain");
      a = {
        raw,
        gz: gzipSync(raw, { level: 9 }),
        type: CONTENT_TYPES[name.slice(name.lastIndexOf("."))] ?? "application/octet-stream",
      };
      assets.set(name, a);
    }
    const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    res.writeHead(200, {
      "Content-Type": a.type,
      "Content-Length": String(gzip ? a.gz.length : a.raw.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      Vary: "Accept-Encoding",
      ...(gzip ? { "Content-Encoding": "gzip" } : {}),
    });
    res.end(gzip ? a.gz : a.raw);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    const { locale, path } = splitLocale(url.pathname);
    const customer = customerOf(req);
    const wanted = url.searchParams.get("blocks");
    const blocks: BlockChoice = wanted === "none" || wanted === "stars" || wanted === "reviews" ? wanted : "all";

    if (path === proxyPath || path.startsWith(`${proxyPath}/`)) {
      return forwardToApp(req, res, path.slice(proxyPath.length), url.searchParams, customer?.id ?? "", {
        proxyUrl: `${opts.appUrl}/apps/reviews`,
        secret: opts.apiSecret,
        shop: opts.shop,
        pathPrefix: proxyPath,
        rewriteHtml: offlineImages,
      });
    }
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "method not allowed", "text/plain");
    if (url.pathname.startsWith(`${ASSET_BASE}/`))
      return asset(req, res, decodeURIComponent(url.pathname.slice(ASSET_BASE.length + 1)));
    const cdn = /^\/images\/cdn\/([a-z0-9-]{1,200})\.svg$/.exec(url.pathname);
    if (cdn)
      return send(res, 200, productImageSvg(cdn[1], cdn[1].replace(/-/g, " ")), "image/svg+xml", {
        "Cache-Control": "public, max-age=86400",
      });
    const image = /^\/images\/products\/(\d+)\.svg$/.exec(url.pathname);
    if (image) {
      return send(res, 200, productImageSvg(image[1], url.searchParams.get("t") ?? "Product"), "image/svg+xml", {
        "Cache-Control": "public, max-age=86400",
      });
    }
    if (url.pathname === THEME_BLOCKS_PATH)
      // Read from the embedded admin's origin (another port): any origin may, it holds no secret.
      return send(res, 200, JSON.stringify({ on: RENDERED_BLOCKS }), "application/json", {
        "Access-Control-Allow-Origin": "*",
        "Cache-Control": "no-store",
      });
    if (url.pathname === "/account/login-as") {
      const id = url.searchParams.get("customer") ?? "";
      const back = url.searchParams.get("return") ?? "/";
      const safeBack = back.startsWith("/") && !back.startsWith("//") ? back : "/";
      const known = LOCAL_CUSTOMERS.some((c) => c.id === id);
      res.writeHead(303, {
        Location: safeBack,
        "Set-Cookie": known
          ? `${CUSTOMER_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`
          : `${CUSTOMER_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`,
      });
      return res.end();
    }
    const productMatch = /^\/products\/([a-z0-9][a-z0-9-]*)\/?$/.exec(path);
    if (productMatch) return product(res, productMatch[1], locale, customer, path, blocks);
    if (path === "/collections/all" || path === "/collections/all/") return collection(res, locale, customer, blocks);
    if (path === "/pages/store-reviews" || path === "/pages/store-reviews/")
      return storeReviews(res, locale, customer, blocks);
    if (path === "/account" || path === "/account/") return account(res, locale, customer, "/account", null, blocks);
    const orderMatch = /^\/account\/orders\/(\d{1,20})\/?$/.exec(path);
    if (orderMatch) return account(res, locale, customer, path, orderMatch[1], blocks);
    if (path === "/") {
      res.writeHead(302, { Location: url.pathname.replace(/\/?$/, "/collections/all").replace(/^\/\//, "/") });
      return res.end();
    }
    return notFound(res, locale, customer, path);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        send(res, 500, `local storefront error: ${(e as Error).message}`, "text/plain; charset=utf-8");
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  origin = `http://${opts.host ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    reader,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Shopify CDN images (out of reach offline) in the app's fragments → the storefront's placeholders. */
function offlineImages(html: string): string {
  return html.replace(
    /https:\/\/cdn\.shopify\.com\/s\/files\/[^"'\s]*?\/([a-z0-9-]{1,200})\.(?:jpg|jpeg|png|webp)(?:\?[^"'\s]*)?/g,
    "/images/cdn/$1.svg",
  );
}

function send(res: ServerResponse, status: number, body: string, type: string, headers: Record<string, string> = {}) {
  const bytes = Buffer.from(body);
  res.writeHead(status, { "Content-Type": type, "Content-Length": String(bytes.length), ...headers });
  res.end(bytes);
}
