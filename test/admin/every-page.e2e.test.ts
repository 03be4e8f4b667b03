import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Route } from "playwright-core";
import { adminProbes, checkPage } from "../../sandbox/dev-local/browser-check";
import { appBridgeStandIn } from "../../sandbox/app-bridge/stand-in";
import { APP_BRIDGE_CDN_URL } from "../../app/.server/admin/local-bridge";
import { embeddedUrl } from "../helpers/admin-browser";
import { sessionToken } from "../helpers/session-token";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";

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
