import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { ratingValueDefinition } from "../../app/.server/backsync/definitions";
import { en } from "../../app/shared/i18n/en";

// The Settings page in Chromium: every setting of the shop, Shopify's save bar, a change saved, a
// bad value refused as it is typed (and by the server), and the variant-key change that asks first
// how many reviews it would orphan.

const SHOP = "settings-admin.myshopify.com";
let a: AdminStack;

beforeAll(async () => {
  a = await startAdminStack("admin-settings", SHOP, { products: 4 });
  await a.s.connect(SHOP, "acme");
  // The account holds reviews: a variant-key change would orphan them.
  a.s.emu.control.seed({ customer: "acme", products: 6 });
}, 180_000);
afterAll(async () => {
  await a?.close();
});

const saved = async () => await a.s.web.shops.settings(SHOP);

describe("settings page", () => {
  it("GIVEN the settings WHEN the merchant changes one and saves from the save bar THEN it is stored", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/settings");
    await page.getByLabel("Default category").waitFor();
    expect(await page.locator("ui-save-bar[data-shown]").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "settings");
    // The Google feed's address moved to its own page: Settings links there, within the app.
    await page.getByRole("link", { name: en["settings.googleFeed.open"] }).waitFor();
    // Beside it, the incentive question Google's 2.4 feed needs answered, off until the merchant says.
    const incentives = page.getByRole("checkbox", { name: en["setting.googleFeed.incentivizedReviews"] });
    expect(await incentives.isChecked()).toBe(false);
    expect(await page.getByText(en["setting.googleFeed.incentivizedReviews.help"]).count()).toBe(1);
    // How to turn on the rating filter, naming the definition the back-sync makes.
    await page.getByRole("heading", { name: "Filter by rating" }).waitFor();
    expect(await page.getByText(`Pick "${ratingValueDefinition([]).name}" among the product metafields`).count()).toBe(
      1,
    );

    await page.getByLabel("Default category").fill("Gifts");
    await page.getByLabel("Review requests by SMS").selectOption("never");
    await page.locator("ui-save-bar[data-shown]").waitFor();
    await page.locator("ui-save-bar button", { hasText: "Save" }).click();
    await page.getByText("Settings saved.").waitFor();
    expect((await saved()).catalog.defaultCategory).toBe("Gifts");
    expect((await saved()).orders.optOut.sms).toBe("never");
    await page
      .locator("ui-save-bar[data-shown]")
      .waitFor({ state: "detached" })
      .catch(() => {});
    expect(await page.locator("ui-save-bar[data-shown]").count()).toBe(0);
  }, 90_000);

  it("GIVEN the settings WHEN the merchant follows the Google Shopping link THEN the channels page shows the feed's address", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/settings");
    await page.getByRole("link", { name: en["settings.googleFeed.open"] }).click();
    await page.waitForURL(/\/app\/channels/);
    const { primaryDomain } = await a.s.web.shops.get(SHOP);
    expect(primaryDomain).toMatch(/^https:\/\//);
    expect(await page.getByLabel(en["channels.google.url"]).inputValue()).toBe(
      `${primaryDomain}/apps/reviews/google-feed.xml`,
    );
  }, 60_000);

  it("GIVEN a value out of range THEN the field says so as it is typed and nothing is saved", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/settings");
    const before = await saved();
    await page.getByLabel("Mark delivered after (days)").fill("500");
    await page.getByText("Enter a number from 1 to 90.").waitFor();
    expect(await page.locator("ui-save-bar button", { hasText: "Save" }).isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "settings-refused");
    expect(await saved()).toEqual(before);
    await page.locator("ui-save-bar button", { hasText: "Discard" }).click();
    await expect.poll(() => page.getByLabel("Mark delivered after (days)").inputValue()).toBe("");
  }, 60_000);

  it("GIVEN reviews at the service WHEN the merchant changes the variant key THEN the page names how many would be orphaned and saves only once confirmed", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/settings");
    const reviews = a.s.emu.control.state("acme").reviews.length;
    expect(reviews).toBeGreaterThan(0);
    await page.getByLabel("Variant key").selectOption("sku");
    await page.locator("ui-save-bar button", { hasText: "Save" }).click();
    await page.getByText(`The reviews service holds ${reviews} reviews for account acme.`, { exact: false }).waitFor();
    expect((await saved()).catalog.variantKey).toBe("id");
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "settings-variant-key");
    await page.getByLabel("I understand: change it anyway").check();
    await page.locator("ui-save-bar button", { hasText: "Save" }).click();
    await page.getByText("A full catalog sync was started").waitFor();
    expect((await saved()).catalog.variantKey).toBe("sku");
    const shop = await a.s.web.shops.get(SHOP);
    expect(await a.s.t.db.syncRun.count({ where: { shopId: shop.id, kind: "catalog" } })).toBe(1);
  }, 60_000);
});
