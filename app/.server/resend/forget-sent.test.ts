import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { deletePrefix, uniquePrefix } from "../../../test/helpers/redis";
import { testAppContext, testConfig } from "../../../test/helpers/contexts";
import { connectToEmulator } from "../../../test/helpers/connect";
import { createProductMirror } from "../catalog/product-mirror.repository";
import { createOrderStateRepository } from "../orders/order-state.repository";
import { forgetIfAnotherAccount } from "../install/connect-shop";
import { onboardingState } from "../admin/onboarding";
import { forgetWhatWasSent, RESEND_REASON } from "./forget-sent";
import type { AppContext } from "../context.server";

// What the app remembers having sent, forgotten when the other side no longer holds it (another
// account, a fresh emulator), so that the next syncs send everything; and the home checklist read
// from what the service took, whichever way the shop was connected (the CLI checks no credentials).

const prefix = uniquePrefix("forget-sent");
let t: TestDb;
let ctx: AppContext;

beforeAll(async () => {
  t = await createTestDb("sqlite");
  ctx = testAppContext(testConfig({ DATABASE_URL: t.url, REDIS_PREFIX: prefix }), t.db);
});
afterAll(async () => {
  await ctx.queues.close();
  await deletePrefix(prefix);
  await t.drop();
});

// A catalog product as the catalog sender stages it, and the order state a sent order leaves.
const product = (id: string) => ({
  productId: id,
  sku: id,
  hash: `hash-${id}`,
  product: {
    sku: id,
    name: `Linen shirt ${id}`,
    categories: ["Shirts"],
    url: `https://shop.example.com/products/linen-shirt-${id}`,
  },
  sourceUpdatedAt: Date.parse("2026-11-20T10:00:00Z"),
  categoriesFrom: "type" as const,
});

async function sentState(domain: string, productIds: string[], orderIds: string[]) {
  const shop = await ctx.shops.get(domain);
  await createProductMirror(t.db).recordAccepted(shop.id, productIds.map(product) as never);
  for (const orderId of orderIds) {
    await createOrderStateRepository(t.db).save(shop.id, orderId, {
      fingerprint: `fp-${orderId}`,
      status: "paid",
      sentAt: new Date(),
      sentUpdatedAt: new Date("2026-11-20T10:00:00Z"),
    });
  }
  return shop;
}

describe("forgetting what was sent", () => {
  it("GIVEN products and orders the service took THEN forgetting leaves nothing to skip as unchanged, keeps the payloads, and ends runs under way", async () => {
    await connectToEmulator(ctx, "forget-a.myshopify.com", "acme");
    const shop = await sentState("forget-a.myshopify.com", ["8100000000001", "8100000000002"], ["5900000000001"]);
    const run = await t.db.syncRun.create({ data: { shopId: shop.id, kind: "catalog", status: "running" } });
    expect((await createProductMirror(t.db).acceptedVersions(shop.id, ["8100000000001", "8100000000002"])).size).toBe(
      2,
    );

    expect(await forgetWhatWasSent(t.db, shop.id)).toEqual({ products: 2, orders: 1, ratings: 0, runs: 1 });
    expect((await createProductMirror(t.db).acceptedVersions(shop.id, ["8100000000001", "8100000000002"])).size).toBe(
      0,
    );
    expect((await createProductMirror(t.db).get(shop.id, "8100000000001"))?.payload).toContain("Linen shirt");
    const order = await createOrderStateRepository(t.db).get(shop.id, "5900000000001");
    expect(order).toMatchObject({ fingerprint: null, status: null });
    expect(await t.db.syncRun.findUnique({ where: { id: run.id } })).toMatchObject({
      status: "cancelled",
      error: RESEND_REASON,
    });
  });

  it("GIVEN a reconnection THEN only another account (customer or service address) forgets; the same one keeps what it holds", async () => {
    await connectToEmulator(ctx, "forget-b.myshopify.com", "acme");
    const shop = await sentState("forget-b.myshopify.com", ["8100000000003"], []);
    const before = await ctx.shops.status(shop.domain);
    expect(await forgetIfAnotherAccount(t.db, shop.id, before, { customerKey: "acme", apiUrl: null })).toBeNull();
    expect((await createProductMirror(t.db).acceptedVersions(shop.id, ["8100000000003"])).size).toBe(1);
    expect(
      await forgetIfAnotherAccount(t.db, shop.id, before, {
        customerKey: "acme",
        apiUrl: "https://eu.reviews.example.com/api",
      }),
    ).toMatchObject({ products: 1 });
    await sentState(shop.domain, ["8100000000003"], []);
    expect(await forgetIfAnotherAccount(t.db, shop.id, before, { customerKey: "other-store" })).toMatchObject({
      products: 1,
    });
    expect((await createProductMirror(t.db).acceptedVersions(shop.id, ["8100000000003"])).size).toBe(0);
  });
});

describe("the home checklist, for a shop connected by the CLI", () => {
  it("GIVEN a connection no token check confirmed WHEN the service took its catalog and orders flow THEN it is connected and its orders are done", async () => {
    const domain = "cli-connected.myshopify.com";
    await connectToEmulator(ctx, domain, "acme");
    let state = await onboardingState(ctx, domain, "api-key");
    expect(state.steps.credentials.done).toBe(false);
    expect(state.steps.orders.done).toBe(false);

    await sentState(domain, ["8100000000004"], ["5900000000002", "5900000000003"]);
    state = await onboardingState(ctx, domain, "api-key");
    expect(state.steps.credentials.done).toBe(true);
    expect(state.steps.orders).toMatchObject({ done: true, backfilled: false, sent: 2 });
  });
});
