import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Page } from "playwright-core";
import { startEmulator } from "../../sandbox/emulator/server";
import { startStack } from "../helpers/stack";
import { startSimulatedStore } from "../../sandbox/simulated-store";
import { buildAdmin, openAdmin, type AdminServer } from "../helpers/admin-browser";
import { launchFullChromium } from "../helpers/chromium";
import { startWebProcess } from "../helpers/built-app";
import type { BenchResult } from "./report";
import { ADMIN_SESSION_LIFETIME_MS, seedOfflineSession } from "../helpers/offline-session";

// The embedded admin in Chromium on this machine: lab Web Vitals of each page (LCP, CLS, INP with
// the web-vitals package: lab figures, one browser, no network, not the field data Built for
// Shopify measures at the 75th percentile), and the moderation queue's time to first row with
// 10,000 reviews at the service. The app is built and served as in production: `server/main.ts` in
// a web process of its own with NODE_ENV=production (served in this process, React rendered in its
// development build and shared one event loop with the emulator, the workers and Playwright, which
// the figures then counted as the app's). The data path is real (emulator, Redis, SQLite, workers).

const SHOP = "bench-admin.myshopify.com";
const CUSTOMER = "acme";
// The package exports no path to its IIFE build: found beside its main file.
const require = createRequire(import.meta.url);
const WEB_VITALS = readFileSync(join(dirname(require.resolve("web-vitals")), "web-vitals.iife.js"), "utf8");

// Collects the vitals as web-vitals reports them (every change), for the page to hand over.
const COLLECT = `${WEB_VITALS};
window.__vitals = {};
for (const [name, on] of [["LCP", webVitals.onLCP], ["CLS", webVitals.onCLS], ["INP", webVitals.onINP]]) {
  on((m) => { window.__vitals[name] = m.value; }, { reportAllChanges: true });
}`;

/**
 * When the moderation queue's first row is first rendered: checked in every animation frame, which
 * runs just before the browser paints, so this is the frame the merchant first sees the row in (not
 * when Playwright, queued behind hydration on the page's main thread, gets to see it).
 */
const FIRST_ROW = `(function frame() {
  requestAnimationFrame(() => {
    const row = document.querySelector(".Polaris-IndexTable__TableRow");
    if (row && row.getBoundingClientRect().height > 0) window.__firstRow = performance.now();
    else frame();
  });
})();`;

/** An account of 10,000 reviews: the emulator's seeded account, its reviews repeated with new ids. */
function reviewsDataFile(dir: string, reviews: number): Promise<string> {
  return (async () => {
    const seeder = await startEmulator({
      port: 0,
      accounts: [{ customer: CUSTOMER, clientId: "acme-client", clientSecret: "acme-secret-0123456789" }],
    });
    seeder.control.seed({ customer: CUSTOMER, products: 200 });
    const snapshot = seeder.control.state(CUSTOMER) as unknown as { reviews: Record<string, unknown>[] };
    await seeder.close();
    const base = snapshot.reviews;
    const many = Array.from({ length: reviews }, (_, i) => ({
      ...base[i % base.length],
      _id: `bench${String(i).padStart(8, "0")}`,
      status: i % 3 === 0 ? "published" : "pending",
    }));
    const file = join(dir, "emulator.json");
    writeFileSync(file, JSON.stringify({ version: 1, customers: [{ ...snapshot, reviews: many }] }));
    return file;
  })();
}

async function vitalsOf(page: Page, interact: () => Promise<void>) {
  await interact();
  // Hidden, as when the merchant leaves: web-vitals reports CLS and INP then.
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  return page.evaluate(() => (window as unknown as { __vitals: Record<string, number> }).__vitals);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

export async function runAdminBench(opts: {
  reviews: number;
  runs: number;
  /** Only these pages' vitals (all when absent). */ pages?: string[];
}): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "admin-bench-"));
  const dataFile = await reviewsDataFile(dir, opts.reviews);
  const emu = await startEmulator({
    port: 0,
    dataFile,
    accounts: [{ customer: CUSTOMER, clientId: "acme-client", clientSecret: "acme-secret-0123456789" }],
  });
  const store = await startSimulatedStore({ shop: SHOP, products: 200, seed: 3, bulkDurationMs: 50 });
  const s = await startStack("admin-bench", {
    SHOPIFY_ORIGIN: store.originTemplate,
    REVIEWS_API_URL: emu.baseUrl,
    REVIEWS_AUTH_URL: emu.authUrl,
    REVIEWS_RATE_URL: emu.rateUrl,
    LOG_LEVEL: "silent",
  });
  const browser = await launchFullChromium();
  try {
    await seedOfflineSession(s.t.db, store, {
      shop: SHOP,
      scope: s.config.SCOPES,
      lifetimeMs: ADMIN_SESSION_LIFETIME_MS,
    });
    await s.connect(SHOP, CUSTOMER);
    const buildDir = await buildAdmin();
    const web = await startWebProcess(buildDir, {
      DATABASE_URL: s.t.url,
      REDIS_URL: s.config.REDIS_URL,
      REDIS_PREFIX: s.prefix,
      REVIEWS_API_URL: emu.baseUrl,
      REVIEWS_AUTH_URL: emu.authUrl,
      REVIEWS_RATE_URL: emu.rateUrl,
      SHOPIFY_ORIGIN: store.originTemplate,
    });
    const server: AdminServer = { url: web.url, close: async () => void (web.signal("SIGTERM"), await web.exited) };
    // Interactions that stay on the page (INP needs one): a disclosure, a select, a checkbox.
    const pages: { name: string; path: string; interact: (p: Page) => Promise<void> }[] = [
      { name: "home", path: "/app", interact: (p) => p.getByRole("button", { name: /Advanced/ }).click() },
      { name: "sync", path: "/app/sync", interact: (p) => p.getByRole("heading", { name: "Catalog" }).click() },
      { name: "settings", path: "/app/settings", interact: (p) => p.getByLabel("Leave out test orders").click() },
      {
        name: "reviews",
        path: "/app/reviews",
        interact: (p) => p.getByRole("button", { name: "More filters" }).click(),
      },
      { name: "report", path: "/app/report", interact: (p) => p.getByLabel("Only published reviews").click() },
      {
        name: "questions",
        path: "/app/questions",
        interact: (p) => p.getByRole("heading", { name: "Questions", level: 2 }).click(),
      },
      {
        name: "surveys",
        path: "/app/surveys",
        interact: (p) => p.getByRole("heading", { name: "Score distribution" }).click(),
      },
      { name: "groups", path: "/app/groups", interact: (p) => p.getByLabel("Group name").click() },
    ];
    const figures: BenchResult["figures"] = { "reviews at the service": opts.reviews, "runs per page": opts.runs };
    const targets: NonNullable<BenchResult["targets"]> = {};
    for (const pg of pages.filter((p) => !opts.pages || opts.pages.includes(p.name))) {
      const lcp: number[] = [];
      const cls: number[] = [];
      const inp: number[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const tab = await openAdmin(browser, server, SHOP, { allow: [new URL(emu.baseUrl).origin] });
        await tab.context.addInitScript(COLLECT);
        await tab.goto(pg.path);
        await tab.page.waitForLoadState("networkidle");
        const v = await vitalsOf(tab.page, () => pg.interact(tab.page));
        lcp.push(v.LCP ?? NaN);
        cls.push(v.CLS ?? 0);
        inp.push(v.INP ?? 0);
        await tab.close();
      }
      figures[`${pg.name}: LCP, ms (median)`] = Math.round(median(lcp));
      figures[`${pg.name}: CLS (median)`] = Math.round(median(cls) * 1000) / 1000;
      figures[`${pg.name}: INP, ms (median)`] = Math.round(median(inp));
      targets[`${pg.name} LCP ≤ 2500 ms (lab)`] = {
        value: Math.round(median(lcp)),
        limit: 2500,
        ok: median(lcp) <= 2500,
      };
      targets[`${pg.name} CLS ≤ 0.1 (lab)`] = {
        value: Math.round(median(cls) * 1000) / 1000,
        limit: 0.1,
        ok: median(cls) <= 0.1,
      };
      targets[`${pg.name} INP ≤ 200 ms (lab)`] = { value: Math.round(median(inp)), limit: 200, ok: median(inp) <= 200 };
    }

    // Time to first row of the moderation queue: opened cold (document load), and from another page.
    const painted: number[] = [];
    const seen: number[] = [];
    const ttfb: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      const tab = await openAdmin(browser, server, SHOP, { allow: [new URL(emu.baseUrl).origin] });
      await tab.context.addInitScript(FIRST_ROW);
      await tab.page.goto(
        `${server.url}/app/reviews?${new URLSearchParams({ embedded: "1", shop: SHOP, host: Buffer.from(`${SHOP}/admin`).toString("base64url"), locale: "en", id_token: tab.token })}`,
      );
      await tab.page.locator(".Polaris-IndexTable__TableRow").first().waitFor();
      seen.push(await tab.page.evaluate(() => performance.now()));
      const cold = await tab.page.waitForFunction(() => {
        const w = window as unknown as { __firstRow?: number };
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        return w.__firstRow === undefined ? false : { row: w.__firstRow, ttfb: nav.responseStart };
      });
      const { row, ttfb: t } = (await cold.jsonValue()) as { row: number; ttfb: number };
      painted.push(row);
      ttfb.push(t);
      await tab.goto("/app/sync");
      const t0 = Date.now();
      await tab.page.locator("ui-nav-menu a", { hasText: "Reviews" }).nth(1).click();
      await tab.page.locator(".Polaris-IndexTable__TableRow").first().waitFor();
      warm.push(Date.now() - t0);
      await tab.close();
    }
    figures["moderation queue, first row rendered from a cold load, ms (median)"] = Math.round(median(painted));
    figures["moderation queue, first row rendered from a cold load, ms (each run)"] = painted
      .map(Math.round)
      .join(", ");
    figures["moderation queue, document's first byte (server time + loopback), ms (median)"] = Math.round(median(ttfb));
    figures["moderation queue, first row as Playwright sees it (after hydration), ms (median)"] = Math.round(
      median(seen),
    );
    figures["moderation queue, time to first row from the nav, ms (median)"] = Math.round(median(warm));
    targets[`moderation first row ≤ 500 ms with ${opts.reviews.toLocaleString("en-US")} reviews (cold)`] = {
      value: Math.round(median(painted)),
      limit: 500,
      ok: median(painted) <= 500,
    };
    figures["note"] = "lab figures in headless Chromium on this machine, not field data";
    await server.close();
    return [{ scenario: "admin: embedded admin lab Web Vitals and moderation queue", figures, targets }];
  } finally {
    await browser.close();
    await s.close();
    await store.close();
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
