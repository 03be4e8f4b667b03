import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { adminPages } from "../../app/admin/pages";
import { writeAppBridgeStandIn } from "../../sandbox/app-bridge/script-file";

// With the App Bridge stand-in in use (ADMIN_LOCAL_BRIDGE=1: no Shopify admin around the app, as
// `npm run dev:local` runs it), the admin pages ask Shopify's CDN for nothing: no App Bridge
// script, no font stylesheet. Offline such a request hangs or fails, and a render-blocking one
// holds the whole page.

const SHOP = "offline-assets.myshopify.com";
let a: AdminStack;
const VARS = ["ADMIN_LOCAL_BRIDGE", "ADMIN_LOCAL_BRIDGE_SCRIPT"] as const;
const before = VARS.map((name) => process.env[name]);
const scriptDir = mkdtempSync(join(tmpdir(), "offline-assets-"));

beforeAll(async () => {
  // Read once, when the app first loads its config: set before the stack starts. As dev:local does,
  // the stand-in's script is a file the app serves.
  process.env.ADMIN_LOCAL_BRIDGE = "1";
  process.env.ADMIN_LOCAL_BRIDGE_SCRIPT = writeAppBridgeStandIn(scriptDir);
  a = await startAdminStack("admin-offline-assets", SHOP, { products: 3 });
  await a.s.connect(SHOP, "acme");
}, 180_000);
afterAll(async () => {
  VARS.forEach((name, i) => {
    if (before[i] === undefined) delete process.env[name];
    else process.env[name] = before[i];
  });
  await a?.close();
  rmSync(scriptDir, { recursive: true, force: true });
});

/** Every request the page makes to Shopify's CDN, answered or not. */
function cdnRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).hostname === "cdn.shopify.com") seen.push(r.url());
  });
  return seen;
}

const paths = ["/app", ...adminPages.map((p) => p.path)];

describe("offline admin pages", () => {
  it("GIVEN the App Bridge stand-in in use WHEN every admin page loads THEN nothing is requested from cdn.shopify.com", async () => {
    const tab = await a.open();
    const seen = cdnRequests(tab.page);
    for (const path of paths) {
      await tab.goto(path);
      await tab.page.waitForLoadState("networkidle");
      // The stand-in is what answers window.shopify here, served by the app itself.
      expect(await tab.page.locator('script[src="/local/app-bridge.js"]').count()).toBe(1);
    }
    // A client-side navigation too: the layout and root data it keeps must not bring the CDN back.
    await tab.page.locator("ui-nav-menu a", { hasText: "Settings" }).first().click();
    await tab.page.waitForURL(/\/app\/settings/);
    await tab.page.waitForLoadState("networkidle");
    expect(seen).toEqual([]);
  }, 120_000);

  it("GIVEN a page that does ask the CDN THEN the recording sees it (the check above can fail)", async () => {
    const tab = await a.open();
    const seen = cdnRequests(tab.page);
    await tab.goto("/app/settings");
    // As the font stylesheet did before: a request to the CDN from the page.
    await tab.page.evaluate(() => fetch("https://cdn.shopify.com/static/fonts/inter/v4/styles.css").catch(() => null));
    expect(seen).toEqual(["https://cdn.shopify.com/static/fonts/inter/v4/styles.css"]);
  }, 60_000);
});
