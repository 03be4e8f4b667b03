import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Route } from "playwright-core";
import { adminProbes, checkPage, idsShown } from "../../sandbox/dev-local/browser-check";
import { appBridgeStandIn } from "../../sandbox/app-bridge/stand-in";
import { APP_BRIDGE_CDN_URL } from "../../app/.server/admin/local-bridge";
import { embeddedUrl } from "../helpers/admin-browser";
import { sessionToken } from "../helpers/session-token";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { DEMO_ACCOUNT } from "../../sandbox/dev-local/demo";

// Every admin page of the production build opens with no error in the browser and proves it
// hydrated with one control that needs its script. The same pages on Vite's dev server (what
// `npm run dev:local` serves) are opened by `dev:local --check` (test/e2e/dev-local.test.ts).

const SHOP = "every-page-admin.myshopify.com";
let a: AdminStack;

beforeAll(async () => {
  a = await startAdminStack("admin-every-page", SHOP, { products: 4 });
  await a.s.connect(SHOP, "acme");
  a.s.emu.control.seed({ customer: "acme", products: 12 });
}, 240_000);
afterAll(async () => {
  await a?.close();
});

/** What Shopify's admin would load around the app: App Bridge (the stand-in); its CDN's other files empty. */
const outside = (appOrigin: string) => (route: Route) => {
  const url = route.request().url();
  // The service's media (review photos) come from the emulator, as they would from its CDN.
  if (
    url.startsWith(appOrigin) ||
    url.startsWith(new URL(a.s.emu.baseUrl).origin) ||
    url.startsWith("data:") ||
    url.startsWith("blob:")
  )
    return route.continue();
  if (url.split("?")[0] === APP_BRIDGE_CDN_URL)
    return route.fulfill({ status: 200, contentType: "text/javascript", body: appBridgeStandIn() });
  if (url.startsWith("https://cdn.shopify.com/"))
    return route.fulfill({ status: 200, contentType: url.includes(".css") ? "text/css" : "text/plain", body: "" });
  return route.abort();
};

describe("the admin served by the production build", () => {
  it.each(Object.entries(adminProbes))(
    "GIVEN %s opened THEN it hydrates with no error and its control answers",
    async (path, probe) => {
      const url = embeddedUrl(a.server, SHOP, path, { token: sessionToken(SHOP, { lifetimeSeconds: 3600 }) });
      const result = await checkPage(a.browser, url, probe, { appOrigin: a.server.url, route: outside(a.server.url) });
      expect(result.problems).toEqual([]);
      expect(result.proved).toBeTruthy();
    },
    120_000,
  );
});

describe("names, not ids", () => {
  it("GIVEN the service's ids and keys for this shop THEN no admin page shows one where a merchant reads", async () => {
    const state = a.s.emu.control.state("acme");
    // What the service and Shopify know things by: product keys (Shopify's product ids here), review
    // and order ids, the account's customer key and client id. Order ids of four digits or fewer
    // are the order's number itself ("1004"), which a merchant knows.
    const ids = [
      ...state.products.map((p) => p.sku),
      ...state.reviews.map((r) => r._id),
      ...state.orders.map((o) => o.orderId).filter((id) => id.length > 4),
      "acme",
      DEMO_ACCOUNT.clientId,
    ];
    const tab = await a.open();
    const shown: Record<string, string[]> = {};
    for (const path of Object.keys(adminProbes)) {
      await tab.goto(path);
      await tab.page.waitForLoadState("networkidle");
      const found = await idsShown(tab.page, ids);
      if (found.length) shown[path] = found;
    }
    expect(shown).toEqual({});
  }, 180_000);
});
