import { mkdirSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { appBridgeStandIn } from "../../sandbox/app-bridge/stand-in";
import { APP_BRIDGE_CDN_URL } from "../../app/.server/admin/local-bridge";
import { hostParam } from "../../app/.server/admin/session-token";
import { sessionToken } from "./session-token";
import type { Db } from "../../app/.server/db/client";
import { builtApp } from "./built-app";
import { launchChromium } from "./chromium";
import { axeViolationsOf, type AxeViolation } from "./axe";

// The embedded admin in Chromium with no Shopify around it: the app built (`remix vite:build`, into
// a folder of the caller's) and served for real over HTTP in this process, on the test's database
// and app context; App Bridge's CDN script answered with the stand-in, which adds the session token
// to the app's requests; other cdn.shopify.com files answered empty; anything else outside the app
// aborted. An ordinary desktop user agent: the library answers 410 to HeadlessChrome.

export const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
/** The admin tests' screenshots: ADMIN_SHOTS_DIR, else SHOTS_DIR/admin; none when neither is set (shots.ts). */
const SHOTS_DIR = process.env.ADMIN_SHOTS_DIR || (process.env.SHOTS_DIR && path.join(process.env.SHOTS_DIR, "admin"));

/** The app as production builds it, shared with the other tests that need a build (built-app.ts). */
export const buildAdmin = (): Promise<string> => builtApp();

export interface AdminServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a build in this process. The build's modules read the test's app context and database
 * through globalThis (context.server.ts, db.server.ts), so set them (startStack does the context)
 * before the first request.
 */
export async function serveAdmin(buildDir: string, db: Db): Promise<AdminServer> {
  globalThis.__reviewsDb = db;
  const build = await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href);
  const app = express();
  app.disable("x-powered-by");
  app.use("/assets", express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build, mode: "production" }));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export { launchChromium };

/** Where a test opens the admin: the URL Shopify's admin would give the app's iframe. */
export function embeddedUrl(
  server: AdminServer,
  shop: string,
  pathname: string,
  opts: { locale?: string; token?: string } = {},
): string {
  const [path, query] = pathname.split("?");
  const q = new URLSearchParams(query);
  for (const [k, v] of Object.entries({ embedded: "1", shop, host: hostParam(shop), locale: opts.locale ?? "en" }))
    q.set(k, v);
  if (opts.token) q.set("id_token", opts.token);
  return `${server.url}${path}?${q}`;
}

export interface AdminTab {
  context: BrowserContext;
  page: Page;
  token: string;
  /** Requests that left for outside the app and were aborted. */
  blocked: string[];
  goto(pathname: string, opts?: { locale?: string }): Promise<void>;
  close(): Promise<void>;
}

export async function openAdmin(
  browser: Browser,
  server: AdminServer,
  shop: string,
  opts: {
    width?: number;
    height?: number;
    /** Origins the page may load from besides the app (the service's media). */ allow?: string[];
    /** The App Bridge stand-in's options (its theme read from a local storefront). */
    bridge?: Parameters<typeof appBridgeStandIn>[0];
  } = {},
): Promise<AdminTab> {
  const token = sessionToken(shop, { lifetimeSeconds: 3600 });
  const context = await browser.newContext({
    userAgent: USER_AGENT,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    acceptDownloads: true,
  });
  const blocked: string[] = [];
  await context.addInitScript(`window.__SESSION_TOKEN__ = ${JSON.stringify(token)};`);
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    if (opts.allow?.some((origin) => url.startsWith(origin))) return route.continue();
    if (url.split("?")[0] === APP_BRIDGE_CDN_URL)
      return route.fulfill({ status: 200, contentType: "text/javascript", body: appBridgeStandIn(opts.bridge) });
    if (url.startsWith("https://cdn.shopify.com/")) {
      return route.fulfill({
        status: 200,
        contentType: url.includes(".css") ? "text/css" : "application/octet-stream",
        body: "",
      });
    }
    blocked.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  return {
    context,
    page,
    token,
    blocked,
    async goto(pathname, o = {}) {
      await page.goto(embeddedUrl(server, shop, pathname, { locale: o.locale, token }));
      await page.waitForFunction(
        () => Boolean((window as unknown as { shopify?: unknown }).shopify) && document.readyState === "complete",
      );
    },
    close: () => context.close(),
  };
}

/**
 * axe-core over the page, every violation with the elements it names, once no index table is
 * loading: a table's loading panel is a passing overlay (a revalidation after an action), whose
 * faded text axe reads as too little contrast.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // The panel stays in the page; it is hidden 100 ms after its table stops loading (a fade-out).
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".Polaris-IndexTable__LoadingPanel")].every(
      (e) => getComputedStyle(e).visibility === "hidden",
    ),
  );
  return axeViolationsOf(page);
}

/** Full-page screenshots at phone and desktop widths, for a person to look at (when asked for). */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  if (!SHOTS_DIR) return [];
  mkdirSync(SHOTS_DIR, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 900 };
  const files: string[] = [];
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const file = path.join(SHOTS_DIR, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
  }
  await page.setViewportSize(before);
  return files;
}

/**
 * The page's cumulative layout shift so far, as CLS counts it (a shift right after input is not
 * one), with what moved: a lab figure in this Chromium, not Built for Shopify's field data.
 */
export function layoutShift(page: Page): Promise<{ cls: number; moved: string[] }> {
  return page.evaluate(
    () =>
      new Promise<{ cls: number; moved: string[] }>((resolve) => {
        let cls = 0;
        const moved: string[] = [];
        type Shift = { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] };
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as Shift[]) {
            if (e.hadRecentInput) continue;
            cls += e.value;
            for (const s of e.sources ?? [])
              moved.push(`${e.value.toFixed(3)} ${(s.node as Element | null)?.outerHTML?.slice(0, 80) ?? "?"}`);
          }
        }).observe({ type: "layout-shift", buffered: true });
        // Buffered entries arrive before the second frame from now.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve({ cls, moved })));
      }),
  );
}
