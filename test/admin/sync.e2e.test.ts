import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/contexts";
import { axeViolations, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { requestBackSync } from "../../app/.server/backsync/schedule";

// The Sync page in Chromium: a full catalog sync started from the page and watched to its end (the
// bar moves while the page is open), a product the service refused retried from its row, and the
// worker's heartbeat; products the service forgot, sent again and then only reported.

const SHOP = "sync-admin.myshopify.com";
let a: AdminStack;

beforeAll(async () => {
  a = await startAdminStack("admin-sync", SHOP, { products: 900, bulkDurationMs: 600 });
  await a.s.connect(SHOP, "acme");
}, 180_000);
afterAll(async () => {
  await a?.close();
});

describe("sync page", () => {
  it("GIVEN a connected shop WHEN the merchant starts a sync THEN the page shows it move to its end", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/sync");
    await page.getByText("Never run").first().waitFor();
    await page.getByText(/A worker is running/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "sync-never");

    // Each batch takes the service a while, as a real one does with 200 products in it.
    a.s.emu.control.setFaults({ latencyMs: 700, paths: "/products/batch$" });
    await page.getByRole("button", { name: "Sync everything now" }).click();
    const catalog = page.locator(".Polaris-ShadowBevel", { has: page.getByRole("heading", { name: "Catalog" }) });
    // What the page says about the catalog run, read while it runs: every distinct line seen.
    const seen = new Set<string>();
    await eventually(
      async () => {
        const text = (await catalog.innerText()).replace(/\s+/g, " ");
        seen.add(text.match(/Read \d[\d,]* · sent \d[\d,]*/)?.[0] ?? "");
        return text;
      },
      (text) => text.includes("Completed"),
      90_000,
    );
    await catalog.getByText("900 of 900").waitFor();
    // It moved while we watched: more than the start and the end were shown.
    expect([...seen].filter(Boolean).length).toBeGreaterThanOrEqual(3);
    a.s.emu.control.clearFaults();
    expect(a.s.emu.control.state("acme").products).toHaveLength(900);
    await page.getByText(/Products: 900 with the service/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "sync-done");
  }, 180_000);

  it("GIVEN a product the service refused WHEN the merchant retries it THEN it is read again and accepted", async () => {
    const shop = await a.s.web.shops.get(SHOP);
    const row = await a.s.t.db.productMirror.findFirstOrThrow({ where: { shopId: shop.id } });
    // What a refusal leaves: the mirror row failed with the service's reason, no accepted hash.
    await a.s.t.db.productMirror.update({
      where: { id: row.id },
      data: {
        status: "failed",
        error: "categories: at least one category is required",
        errorAt: new Date(),
        payloadHash: null,
      },
    });
    await a.s.web.queues.redis.hdel(`${a.s.prefix}:catalog:accepted:${shop.id}`, row.productId);
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/sync");
    await page.getByText("categories: at least one category is required").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "sync-refused");
    await page.getByRole("button", { name: `Retry ${row.productId}` }).click();
    const key = { shopId_productId: { shopId: shop.id, productId: row.productId } };
    await eventually(
      () => a.s.t.db.productMirror.findUnique({ where: key }),
      (r) => r?.status === "synced",
      30_000,
    );
    await page.getByText("Nothing refused").waitFor();
  }, 90_000);

  it("GIVEN the service forgot a product WHEN a review of it says so THEN the page says it was sent again, and later that the service keeps denying it", async () => {
    const shop = await a.s.web.shops.get(SHOP);
    const reviews = await a.s.worker.reviewsFor(SHOP);
    const backSync = async () => {
      await requestBackSync({ queues: a.s.web.queues, config: a.s.config }, shop.id);
      // Generous: the shop's first back-sync reconciles all 900 products, on a loaded machine.
      await a.s.idle(150_000);
    };
    await backSync(); // the feed's first read: where the list stands
    const row = await a.s.t.db.productMirror.findFirstOrThrow({
      where: { shopId: shop.id, status: "synced" },
      orderBy: { productId: "desc" },
    });
    const ids: string[] = [];
    for (const n of [1, 2])
      ids.push(
        (
          await reviews.storefront.submitReview(row.sku, {
            userId: `page-${n}`,
            email: `page${n}@example.com`,
            rating: 4,
            text: `Page review ${n}`,
          })
        )._id,
      );
    a.s.emu.control.forget("acme", { skus: [row.sku] });
    a.s.emu.control.publishReview(ids[0]!);
    await backSync();
    await eventually(
      async () => a.s.emu.control.state("acme").products.some((p) => p.sku === row.sku),
      Boolean,
      120_000,
    );

    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/sync");
    await page
      .getByText("Sent again because the reviews service no longer knew them: products 1, orders 0", { exact: false })
      .waitFor();
    expect(await page.getByText(/Still unknown to the reviews service/).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "sync-sent-again");

    // Forgotten again inside the window: not sent, and the page says the service keeps denying it.
    a.s.emu.control.forget("acme", { skus: [row.sku] });
    a.s.emu.control.publishReview(ids[1]!);
    await backSync();
    await tab.goto("/app/sync");
    await page.getByText("Still unknown to the reviews service after being sent again: 1.", { exact: false }).waitFor();
    expect(a.s.emu.control.state("acme").products.some((p) => p.sku === row.sku)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
  }, 600_000);

  it("GIVEN Shopify refusing this server's address and bulk operations THEN the page says both, and what to do", async () => {
    const shop = await a.s.web.shops.get(SHOP);
    // What the workers leave: the shop's refusal (Shopify's body kept) and a run read page by page.
    await a.s.worker.refusals.refuse(
      SHOP,
      `{"errors":"[API] This request's source IP address is not in the app's IP allowlist."}`,
    );
    await a.s.worker.refusals.scheduled(SHOP, new Date(Date.now() + 60_000));
    const reason =
      "bulk operations refused by Shopify: BulkOperationRunQuery: Access denied for bulkOperationRunQuery field.";
    const progress = JSON.stringify({
      read: 900,
      sent: 0,
      created: 0,
      updated: 0,
      unchanged: 900,
      failed: 0,
      total: null,
    });
    await a.s.t.db.syncRun.create({
      data: {
        shopId: shop.id,
        kind: "catalog",
        status: "completed",
        readPath: "paged",
        readPathReason: reason,
        progress,
        finishedAt: new Date(),
      },
    });
    try {
      const tab = await a.open();
      const { page } = tab;
      await tab.goto("/app/sync");
      await page.getByText("Shopify refused this server's address: add it to the app's IP allowlist.").waitFor();
      await page.getByText(/Shopify said: .*not in the app's IP allowlist/).waitFor();
      await page
        .getByText(`Read page by page: Shopify refused bulk operations (${reason})`, { exact: false })
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshots(page, "sync-refused-address-and-bulk");
    } finally {
      await a.s.worker.refusals.clear(SHOP);
    }
  }, 90_000);
});
