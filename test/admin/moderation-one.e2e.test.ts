import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";

// Moderating one review at a time, as a merchant mostly does: approve or reject on its row, the
// detail a click on the row opens, and the keyboard (j/k move, a approves, r rejects) announced to
// screen readers and quiet while the merchant types in a field.

const SHOP = "moderation-one.myshopify.com";
let a: AdminStack;

beforeAll(async () => {
  a = await startAdminStack("admin-moderation-one", SHOP, { products: 4 });
  await a.s.connect(SHOP, "acme");
  a.s.emu.control.seed({ customer: "acme", products: 12 });
}, 180_000);
afterAll(async () => {
  await a?.close();
});

const reviews = () => a.s.emu.control.state("acme").reviews;
const pending = () => reviews().filter((r) => r.status === "pending");
const statusOf = (id: string) => reviews().find((r) => r._id === id)?.status;

/** The queue, newest first, as the page lists it (the service's order). */
const newestPending = () => [...pending()].sort((x, y) => y.created.localeCompare(x.created));

async function openQueue(locale?: string) {
  const tab = await a.open();
  const errors: string[] = [];
  tab.page.on("pageerror", (e) => errors.push(e.message));
  tab.page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  await tab.goto("/app/reviews", locale ? { locale } : undefined);
  await tab.page.getByText(`${pending().length} ${locale === "pt-BR" ? "no total" : "in total"}`).waitFor();
  return { ...tab, errors };
}

describe("one review at a time", () => {
  it("GIVEN the queue WHEN the merchant clicks Approve on a row THEN that review is published and leaves the queue", async () => {
    const first = newestPending()[0]!;
    const before = pending().length;
    const { page, errors } = await openQueue();
    await page
      .getByRole("button", { name: `Approve the review by ${first.name}` })
      .first()
      .click();
    await page.getByText(`${before - 1} in total`).waitFor();
    expect(statusOf(first._id)).toBe("published");
    expect(errors).toEqual([]);
  }, 90_000);

  it("GIVEN a row clicked THEN its detail shows the text, photos, attributes and order, and Reject there rejects it and opens the next", async () => {
    // A review whose text no other pending one has, photos when one has them.
    const unique = newestPending().filter((r) => r.text && pending().filter((p) => p.text === r.text).length === 1);
    const withPhoto = unique.find((r) => r.pictures.length > 0) ?? unique[0]!;
    const { page, errors } = await openQueue();
    await page.getByText(withPhoto.text!).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: new RegExp(`^Review by ${withPhoto.name}`) }).waitFor();
    await dialog.getByText(withPhoto.text!).waitFor();
    if (withPhoto.pictures.length)
      expect(await dialog.getByRole("img", { name: /^Photo 1 of the review by/ }).count()).toBeGreaterThan(0);
    await dialog.getByRole("heading", { name: "Order" }).waitFor();
    await dialog.getByRole("heading", { name: `Other reviews by ${withPhoto.name}` }).waitFor();
    // The writer's other reviews have loaded (or it says there are none to tie to them).
    await dialog
      .getByText(/reviews by this customer|not tied to a customer|of 5 stars ·/)
      .first()
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "moderation-detail");
    await dialog.getByRole("button", { name: "Reject" }).click();
    await page.getByText(`Review by ${withPhoto.name} rejected.`).first().waitFor();
    expect(statusOf(withPhoto._id)).toBe("removed");
    // The next review opens in its place, so the merchant keeps going.
    await page
      .getByRole("dialog")
      .getByRole("heading", { name: /^Review by / })
      .waitFor();
    expect(errors).toEqual([]);
  }, 90_000);

  it("GIVEN the keyboard WHEN the merchant presses j, then a THEN the first review is announced and approved; typing a in a field moderates nothing", async () => {
    const queue = newestPending();
    const [first, second] = queue;
    const { page, errors } = await openQueue();
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("j");
    const status = page.getByRole("status").filter({ hasText: /^Review 1 of / });
    await status.waitFor();
    expect(await status.textContent()).toContain(`by ${first!.name}, Pending.`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`review-open-${first!._id}`);
    await page.keyboard.press("a");
    await page.getByText(`${queue.length - 1} in total`).waitFor();
    expect(statusOf(first!._id)).toBe("published");

    // In a field, the letters are the merchant's text.
    await page.getByRole("button", { name: "More filters" }).click();
    const tags = page.getByLabel("Tags");
    await tags.click();
    await page.keyboard.type("jar");
    expect(await tags.inputValue()).toBe("jar");
    expect(statusOf(second!._id)).toBe("pending");
    expect(pending()).toHaveLength(queue.length - 1);
    expect(errors).toEqual([]);
  }, 90_000);

  it("GIVEN the admin in Portuguese THEN the row actions, the detail and the shortcuts' hint are in Portuguese", async () => {
    const { page, errors } = await openQueue("pt-BR");
    const first = newestPending()[0]!;
    await page
      .getByRole("button", { name: `Aprovar a avaliação de ${first.name}` })
      .first()
      .waitFor();
    await page
      .getByText(/Atalhos: j e k navegam/)
      .first()
      .waitFor();
    await page
      .getByRole("button", { name: `Detalhes da avaliação de ${first.name}` })
      .first()
      .click();
    await page.getByRole("dialog").getByRole("heading", { name: "Pedido" }).waitFor();
    await screenshots(page, "moderation-detail-pt-BR");
    await page.keyboard.press("Escape");
    await screenshots(page, "moderation-queue-pt-BR");
    expect(errors).toEqual([]);
  }, 90_000);
});
