import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";

// Questions, survey responses and product groups in Chromium against the emulator's seeded account.

const SHOP = "lists-admin.myshopify.com";
let a: AdminStack;

beforeAll(async () => {
  a = await startAdminStack("admin-lists", SHOP, { products: 4 });
  await a.s.connect(SHOP, "acme");
  a.s.emu.control.seed({ customer: "acme", products: 12 });
}, 180_000);
afterAll(async () => {
  await a?.close();
});

const state = () => a.s.emu.control.state("acme");

describe("questions and surveys", () => {
  it("GIVEN questions and survey responses THEN each page lists them, partial answers marked", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/questions");
    await page.getByText(`${state().questions.length} in total`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "questions");

    await page.locator("ui-nav-menu a", { hasText: "Surveys" }).click();
    await page.getByText(`${state().nps.length} in total`).waitFor();
    await page.getByText("Partial answer").first().waitFor();
    await page.getByRole("list", { name: "Score distribution" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "surveys");
  }, 90_000);
});

describe("product groups", () => {
  it("GIVEN groups WHEN the merchant creates, edits and deletes one THEN the service holds what the page says, and a SKU of another group is named", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/groups");
    const [seeded] = state().groups;
    await page.getByText(seeded!.name).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // A SKU that already belongs to the seeded group: refused, and named.
    const [free] = state().products.map((p) => p.sku).filter((sku) => !seeded!.skus.includes(sku));
    await page.getByLabel("Group name").fill("Mugs and more");
    await page.getByLabel("Product keys (SKUs)").fill(`${free}\n${seeded!.skus[0]}`);
    await page.getByRole("button", { name: "Create group" }).last().click();
    await page.getByText(`These products already belong to another group: ${seeded!.skus[0]}`).waitFor();
    expect(state().groups).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "groups-conflict");

    await page.getByLabel("Product keys (SKUs)").fill(free!);
    await page.getByRole("button", { name: "Create group" }).last().click();
    await page.getByText("Group created.").waitFor();
    await page.getByText("2 in total").waitFor();
    const created = state().groups.find((g) => g.name === "Mugs and more")!;
    expect(created.skus).toEqual([free]);

    await page.getByRole("button", { name: "Edit Mugs and more" }).click();
    await page.getByLabel("Group name").fill("Mugs");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Group saved.").waitFor();
    expect(state().groups.find((g) => g._id === created._id)?.name).toBe("Mugs");

    await page.getByRole("button", { name: "Delete Mugs" }).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("Group deleted.").waitFor();
    await page.getByText("1 in total").waitFor();
    expect(state().groups.map((g) => g._id)).toEqual([seeded!._id]);
    await screenshots(page, "groups");
  }, 90_000);
});
