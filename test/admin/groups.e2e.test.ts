import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { eventually } from "../helpers/contexts";
import { reviewsFor } from "../../app/.server/admin/reviews-client";
import { startSync } from "../../app/.server/sync/start-sync";

// Product groups in Chromium: products chosen with App Bridge's resource picker (the stand-in's
// dialog, listing the shop's products from the app's mirror), saved to the emulator, and listed
// by title with their image; two products with one title told apart by their key.

const SHOP = "groups-admin.myshopify.com";
const PRODUCTS = 5;
// A 1×1 PNG: the product images the page shows, answered for the store's CDN.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEhgGAq8ZeDQAAAABJRU5ErkJggg==",
  "base64",
);
let a: AdminStack;
let keys: { productId: string; key: string; title: string }[];

beforeAll(async () => {
  a = await startAdminStack("admin-groups", SHOP, { products: PRODUCTS });
  const [first, second, third] = a.store.products();
  // Two products sold under one title, each with its own image; a third with another title.
  for (const [p, title] of [
    [first!, "Canvas Tote"],
    [second!, "Canvas Tote"],
    [third!, "Enamel Mug"],
  ] as const) {
    const handle = `${title.toLowerCase().replace(/\W+/g, "-")}-${p.id.split("/").pop()}`;
    a.store.updateProduct(p.id, {
      title,
      handle,
      featuredMedia: { preview: { image: { url: `https://cdn.shopify.com/s/files/1/${handle}.png` } } },
    });
  }
  await a.s.connect(SHOP, "acme");
  const shop = await a.s.web.shops.get(SHOP);
  // The catalog sent: the mirror is what the picker lists.
  const { run } = await startSync({ db: a.s.web.db, queues: a.s.web.queues }, shop.id, "catalog");
  await eventually(
    async () => (await a.s.t.db.syncRun.findUnique({ where: { id: run.id } }))?.status,
    (st) => st === "completed",
    120_000,
  );
  const mirror = await eventually(
    () => a.s.t.db.productMirror.findMany({ where: { shopId: shop.id, status: "synced" } }),
    (rows) => rows.length === PRODUCTS,
    120_000,
  );
  const byId = new Map(mirror.map((r) => [r.productId, r.sku]));
  keys = [first!, second!, third!].map((p) => {
    const productId = p.id.split("/").pop()!;
    return { productId, key: byId.get(productId)!, title: a.store.product(p.id)!.title };
  });
}, 240_000);
afterAll(async () => {
  await a?.close();
});

const groups = () => a.s.emu.control.state("acme").groups;

describe("product groups", () => {
  it("GIVEN the shop's products WHEN the merchant picks some THEN the group is saved with their keys and listed by title and image", async () => {
    const [toteA, toteB, mug] = keys;
    // A group the service already holds, with the mug in it.
    await (await reviewsFor(a.s.web, SHOP)).admin.createProductGroup({ name: "Kitchen", skus: [mug!.key] });

    const tab = await a.open();
    const { page } = tab;
    await tab.context.route("https://cdn.shopify.com/s/files/**", (route) =>
      route.fulfill({ status: 200, contentType: "image/png", body: PNG }),
    );
    await tab.goto("/app/groups");
    const kitchen = page.getByRole("row", { name: /Kitchen/ });
    await kitchen.getByText("Enamel Mug").waitFor();
    expect(await kitchen.locator("img").count()).toBe(1);
    expect(await kitchen.getByText(mug!.key).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Group name").fill("Totes");
    await page.getByRole("button", { name: "Choose products" }).click();
    const picker = page.getByRole("dialog", { name: "Select products" });
    await picker.waitFor();
    expect(await picker.getByRole("checkbox").count()).toBe(PRODUCTS);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "groups-picker");
    for (const p of [toteA!, toteB!, mug!]) await picker.getByRole("checkbox", { name: new RegExp(p.key) }).check();
    await picker.getByRole("button", { name: "Select" }).click();
    await picker.waitFor({ state: "detached" });

    // Picked: named by title, the two totes told apart by their key.
    const form = page.getByRole("form", { name: "Create group" });
    await form.getByText("Enamel Mug").waitFor();
    expect(await form.getByText("Canvas Tote").count()).toBe(2);
    await form.getByText(`Key: ${toteA!.key}`).waitFor();
    await form.getByText(`Key: ${toteB!.key}`).waitFor();

    // The mug is in another group: refused, and named by its title.
    await page.getByRole("button", { name: "Create group" }).last().click();
    await page.getByText("These products already belong to another group: Enamel Mug").waitFor();
    expect(groups()).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "groups-conflict");

    await form.getByRole("button", { name: "Remove Enamel Mug" }).click();
    await page.getByRole("button", { name: "Create group" }).last().click();
    await page.getByText("Group created.").waitFor();
    await page.getByText("2 in total").waitFor();
    const created = groups().find((g) => g.name === "Totes")!;
    expect(created.skus).toEqual([toteA!.key, toteB!.key]);

    const totes = page.getByRole("row", { name: /Totes/ });
    expect(await totes.getByText("Canvas Tote").count()).toBe(2);
    await totes.getByText(`Key: ${toteB!.key}`).waitFor();
    expect(await totes.locator("img").count()).toBe(2);
    // The images are shown (loaded), not only referenced.
    await eventually(
      () => totes.locator("img").evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
      Boolean,
      30_000,
    );
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "groups");

    // Editing: the picker opens with the group's products chosen; one taken out is saved out.
    await page.getByRole("button", { name: "Edit Totes" }).click();
    await page.getByRole("button", { name: "Change products" }).click();
    await picker.waitFor();
    expect(await picker.getByRole("checkbox", { name: new RegExp(toteA!.key) }).isChecked()).toBe(true);
    expect(await picker.getByRole("checkbox", { name: new RegExp(mug!.key) }).isChecked()).toBe(false);
    await picker.getByRole("checkbox", { name: new RegExp(toteB!.key) }).uncheck();
    await picker.getByRole("button", { name: "Select" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Group saved.").waitFor();
    expect(groups().find((g) => g._id === created._id)?.skus).toEqual([toteA!.key]);

    // Cancelling the picker changes nothing.
    await page.getByRole("button", { name: "Edit Totes" }).click();
    await page.getByRole("button", { name: "Change products" }).click();
    await picker.waitFor();
    await picker.getByRole("button", { name: "Cancel" }).click();
    await picker.waitFor({ state: "detached" });
    expect(await page.getByRole("form", { name: "Edit Totes" }).getByText("Canvas Tote").count()).toBe(1);

    await page.getByRole("button", { name: "Delete Totes" }).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("Group deleted.").waitFor();
    await page.getByText("1 in total").waitFor();
  }, 180_000);
});
