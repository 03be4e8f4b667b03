import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { madeUpInstall, seedOfflineSession } from "../../test/helpers/offline-session";

// Compliance webhooks through the real ingress and workers: what is produced, what is deleted, and
// that nothing of another shop is touched.
let s: Stack;
const shop = "gdpr.myshopify.com";
const other = "neighbour.myshopify.com";
let shopId: string;
let otherId: string;

beforeAll(async () => {
  s = await startStack("compliance");
  await s.connect(shop);
  await s.connect(other);
  shopId = (await s.web.shops.get(shop)).id;
  otherId = (await s.web.shops.get(other)).id;
  for (const [sid, orderId, customerId] of [
    [shopId, "1001", "42"],
    [shopId, "1002", "42"],
    [shopId, "1003", "77"],
    [otherId, "1001", "42"],
  ] as const) {
    await s.t.db.orderState.create({
      data: { shopId: sid, orderId, customerId, status: "paid", sentAt: new Date("2026-11-01T10:00:00Z") },
    });
  }
  await s.t.db.productMirror.create({ data: { shopId, productId: "9", sku: "9", status: "synced" } });
  await s.t.db.productMirror.create({ data: { shopId: otherId, productId: "9", sku: "9", status: "synced" } });
  await seedOfflineSession(s.t.db, madeUpInstall(shop, "shpat_x"));
  await s.worker.pending.stage(shopId, { productId: "9", sku: "9", hash: "h", product: { sku: "9" } });
});
afterAll(async () => s.close());

const records = (topic: string) => s.t.db.complianceRequest.findMany({ where: { topic } });
const done = (id: string) =>
  eventually(
    () => s.t.db.webhookDelivery.findUnique({ where: { id } }),
    (d) => d?.status === "done",
  );

describe("compliance webhooks", () => {
  it("GIVEN customers/data_request THEN a record of what the app stores about that customer is produced, and only that", async () => {
    await s.deliver(
      "customers/data_request",
      shop,
      {
        shop_id: 1,
        shop_domain: shop,
        customer: { id: 42, email: "jo@example.com", phone: "+15555550100" },
        orders_requested: [1001, 1002],
        data_request: { id: 9999 },
      },
      { webhookId: "dr-1" },
    );
    const [row] = await eventually(
      () => records("customers/data_request"),
      (r) => r.length === 1,
    );
    const record = JSON.parse(row.record);
    expect(record.storedByThisApp.map((o: { orderId: string }) => o.orderId).sort()).toEqual(["1001", "1002"]);
    expect(record.service).toMatch(/reviews service holds/);
    expect(row.record).not.toContain("jo@example.com");
  });

  it("GIVEN customers/redact THEN that customer's order records go, others stay (this shop's and other shops')", async () => {
    await s.deliver(
      "customers/redact",
      shop,
      { shop_id: 1, shop_domain: shop, customer: { id: 42, email: "jo@example.com" }, orders_to_redact: [1001, 1002] },
      { webhookId: "cr-1" },
    );
    await done("cr-1");
    expect((await s.t.db.orderState.findMany({ where: { shopId } })).map((o) => o.orderId)).toEqual(["1003"]);
    expect(await s.t.db.orderState.count({ where: { shopId: otherId } })).toBe(1);
  });

  it("GIVEN shop/redact, twice THEN everything of the shop is gone, here and in Redis, and the neighbour is untouched", async () => {
    await s.t.db.pendingReview.createMany({
      data: [
        { shop, sku: "1", sealedPayload: "sealed" },
        { shop: other, sku: "1", sealedPayload: "sealed" },
      ],
    });
    await s.deliver("shop/redact", shop, { shop_id: 1, shop_domain: shop }, { webhookId: "sr-1" });
    await eventually(
      () => records("shop/redact"),
      (r) => r.length === 1,
    );
    expect(await s.t.db.pendingReview.count({ where: { shop } })).toBe(0);
    expect(await s.t.db.pendingReview.count({ where: { shop: other } })).toBe(1);
    await s.deliver("shop/redact", shop, { shop_id: 1, shop_domain: shop }, { webhookId: "sr-2" });
    await eventually(
      () => records("shop/redact"),
      (r) => r.length === 2,
    );
    expect(await s.t.db.shop.count({ where: { domain: shop } })).toBe(0);
    expect(await s.t.db.orderState.count({ where: { shopId } })).toBe(0);
    expect(await s.t.db.productMirror.count({ where: { shopId } })).toBe(0);
    expect(await s.t.db.session.count({ where: { shop } })).toBe(0);
    expect(await s.worker.pending.pendingCount(shopId)).toBe(0);
    expect(await s.t.db.orderState.count({ where: { shopId: otherId } })).toBe(1);
    expect(await s.t.db.productMirror.count({ where: { shopId: otherId } })).toBe(1);
  });
});
