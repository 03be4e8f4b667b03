import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { createOrderStateRepository } from "../../app/.server/orders/order-state.repository";

// Questions and survey responses in Chromium against the emulator's seeded account (product
// groups: groups.e2e.test.ts).

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

    // An answer's order named as the merchant knows it, where the order sync kept the name.
    const answered = state().nps.find((r) => r.orderId)!;
    const shop = await a.s.web.shops.get(SHOP);
    await createOrderStateRepository(a.s.t.db).save(shop.id, answered.orderId!, { name: "#1042" });
    await page.locator("ui-nav-menu a", { hasText: "Surveys" }).click();
    await page.getByText(`${state().nps.length} in total`).waitFor();
    await page.getByRole("cell", { name: "#1042", exact: true }).waitFor();
    await page.getByText("Partial answer").first().waitFor();
    await page.getByRole("list", { name: "Score distribution" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "surveys");
  }, 90_000);
});
