import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";

// A merchant opens the embedded admin of a freshly installed shop and connects it from the form,
// in Chromium with no Shopify around: a wrong secret is refused in words, saves nothing; the right
// one connects, the first catalog sync and the order backfill run by themselves, and the checklist
// follows them to the end.

const SHOP = "onboarding-admin.myshopify.com";
let a: AdminStack;

beforeAll(async () => {
  a = await startAdminStack("admin-onboarding", SHOP, { products: 12 });
}, 180_000);
afterAll(async () => {
  await a?.close();
});

describe("onboarding in the embedded admin", () => {
  it("GIVEN an installed shop with nothing set up WHEN the merchant connects from the form THEN the checklist follows real state to connected and synced", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app");
    await expect.poll(() => page.getByText("0 of 5 steps done").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "home-empty");

    // A secret the service refuses: its answer in words, and nothing saved.
    await page.getByLabel("Customer key").fill("acme");
    await page.getByLabel("Client id").fill("acme-client");
    await page.getByLabel("Client secret").fill("not-the-secret");
    await page.getByRole("button", { name: "Check and connect" }).click();
    await page.getByText("The reviews service refused these credentials").waitFor();
    expect((await a.s.web.shops.status(SHOP)).connected).toBe(false);
    expect(await a.s.t.db.syncRun.count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "home-refused");

    // The right one: connected, and the first syncs start by themselves.
    await page.getByLabel("Client secret").fill("acme-secret-0123456789");
    await page.getByRole("button", { name: "Check and connect" }).click();
    await page.getByText("Connected. Your catalog is on its way").waitFor();
    const status = await a.s.web.shops.status(SHOP);
    expect(status).toMatchObject({ connected: true, customerKey: "acme", clientId: "acme-client" });
    // Write-only: the field is emptied, and no data the page loaded holds the secret.
    await expect.poll(() => page.getByLabel("Client secret").inputValue()).toBe("");
    expect((await page.content()).includes("acme-secret-0123456789")).toBe(false);

    // The checklist follows the sync while the page is open (it polls while a run is under way).
    await page.getByText("12 products are with the reviews service.").waitFor({ timeout: 60_000 });
    await page.getByText(/Orders of the last 60 days were sent/).waitFor({ timeout: 60_000 });
    expect(a.s.emu.control.state("acme").products).toHaveLength(12);

    await page.getByRole("button", { name: "Confirm this policy" }).click();
    await page.getByRole("button", { name: "I have added them" }).click();
    await page.getByText("5 of 5 steps done").waitFor();

    // Deep links into the theme editor add our blocks (product page, account page) and switch the embed on.
    const links = await page.locator("a[href*='/admin/themes/current/editor']").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(links).toEqual([
      `https://${SHOP}/admin/themes/current/editor?template=product&addAppBlockId=test-api-key%2Fstar-rating&target=mainSection`,
      `https://${SHOP}/admin/themes/current/editor?template=product&addAppBlockId=test-api-key%2Freviews&target=mainSection`,
      `https://${SHOP}/admin/themes/current/editor?context=apps&activateAppId=test-api-key%2Frating-modal`,
      `https://${SHOP}/admin/themes/current/editor?template=customers%2Faccount&addAppBlockId=test-api-key%2Forder-reviews&target=mainSection`,
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "home-connected");
    expect(tab.blocked).toEqual([]);
  }, 180_000);

  it("GIVEN Shopify opens the app in Portuguese or Spanish THEN the admin speaks it", async () => {
    const tab = await a.open();
    await tab.goto("/app", { locale: "pt-BR" });
    await tab.page.getByText("Configure suas avaliações").waitFor();
    expect(await tab.page.getAttribute("html", "lang")).toBe("pt-BR");
    await screenshots(tab.page, "home-pt-BR");
    await tab.goto("/app", { locale: "es-ES" });
    await tab.page.getByText("Configura tus reseñas").waitFor();
    await tab.goto("/app", { locale: "fr" });
    await tab.page.getByText("Set up your reviews").waitFor();
  }, 60_000);

  it("GIVEN the nav menu WHEN the merchant moves between pages THEN each loads with the session token (client navigation)", async () => {
    const tab = await a.open();
    await tab.goto("/app");
    await tab.page.locator("ui-nav-menu a", { hasText: "Sync" }).click();
    await tab.page.waitForURL(/\/app\/sync/);
    await tab.page.getByRole("heading", { name: "Sync", level: 1 }).waitFor();
    await tab.page.locator("ui-nav-menu a[rel=home]").click();
    await tab.page.getByText("Set up your reviews").waitFor();
  }, 60_000);
});
