import { Session } from "@shopify/shopify-api";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { seedNonExpiringSession, seedOfflineSession } from "../../test/helpers/offline-session";
import {
  OrderBook,
  ordersModule,
  productWebhookPayload,
  startSimulatedStore,
  type SimulatedStore,
} from "../../sandbox/simulated-store";
import { keyFrom } from "../../app/.server/crypto/secret-box";
import { startSync } from "../../app/.server/sync/start-sync";
import { resumeAfterReauth } from "../../app/.server/install/resume-after-reauth";
import { shopTokenStates } from "../../app/.server/shopify/token-state";
import { offlineSessionId } from "../../app/.server/shopify/offline-sessions";
import { shopsToMigrate } from "../../app/.server/shopify/token-migration";
import { merchantWaits } from "../../app/.server/shops/merchant-waits";
import { allQueueNames } from "../../app/.server/queues/names";
import { SealedSessionStorage } from "../../app/.server/web/sealed-session-storage";

// The workers on expiring offline tokens, against the simulated store: a full catalog sync that
// outlives several tokens (2 s each, refreshed 0.5 s before their end), the scheduled migration of
// a non-expiring token that appears after the worker started, and a shop whose tokens Shopify
// revoked: marked by its first 401, then no call to Shopify at all (counted on the store) while
// orders and edits arrive, its jobs parked, and everything out once the merchant opens the app.

const SHOP = "offline-tokens.myshopify.com";
const N = 300;
let s: Stack;
let store: SimulatedStore;
const book = new OrderBook({ seed: 3, count: 5, productCount: N });

beforeAll(async () => {
  // A bulk operation of 6 s polled every 100 ms: the sync's calls span three token lifetimes.
  store = await startSimulatedStore({
    shop: SHOP,
    products: N,
    seed: 3,
    bulkDurationMs: 6000,
    modules: [ordersModule(book)],
    tokenLifetimeMs: 2000,
    apiKey: "test-api-key",
    apiSecret: "test-api-secret",
  });
  s = await startStack("offline-tokens", {
    SHOPIFY_ORIGIN: store.originTemplate,
    SHOPIFY_TOKEN_REFRESH_MARGIN_MS: "500",
    BULK_POLL_INTERVAL_MS: "100",
    TOKEN_MIGRATION_INTERVAL_MS: "2000",
    ORDER_TRACKING_GRACE_MS: "0",
  });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await store?.close();
});

/** Every call the store saw: GraphQL (any verdict) and the token endpoint (any answer). */
const shopifyCalls = () =>
  store.tokenUses.length +
  store.tokenStats.refreshes +
  store.tokenStats.refreshesRefused +
  store.tokenStats.exchanges +
  store.tokenStats.exchangesRefused;

/** The clock moves past every delay: each delayed job (not a scheduler's) runs now. */
async function wakeDelayedJobs() {
  for (const name of allQueueNames)
    for (const job of await s.web.queues.get(name).getDelayed())
      if (!job.repeatJobKey) await job.promote().catch(() => undefined);
}

async function syncToEnd() {
  const shop = await s.web.shops.get(SHOP);
  const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shop.id, "catalog");
  return eventually(
    () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
    (r) => r.status === "completed" || r.status === "failed",
    90_000,
  );
}

describe("workers on expiring offline tokens", () => {
  it("GIVEN tokens living 2 s THEN a full sync of several lifetimes completes, refreshing ahead: no call with an expired token", async () => {
    await s.idle();
    const before = { refreshes: store.tokenStats.refreshes, uses: store.tokenUses.length };
    const run = await syncToEnd();
    expect(run.error).toBeNull();
    expect(run.status).toBe("completed");
    expect(s.emu.control.state("acme").products).toHaveLength(N);
    const uses = store.tokenUses.slice(before.uses);
    expect(store.tokenStats.refreshes - before.refreshes).toBeGreaterThanOrEqual(2);
    expect(new Set(uses.map((u) => u.token)).size).toBeGreaterThanOrEqual(3);
    expect(uses.filter((u) => u.verdict !== "ok")).toEqual([]);
    expect(store.tokenStats.refreshesRefused).toBe(0);
    expect((await shopTokenStates(s.t.db).get(SHOP))?.state).toBe("ok");
  }, 120_000);

  it("GIVEN a shop on a non-expiring token appears after the worker started THEN the scheduled migration exchanges it within its interval", async () => {
    // The shop as an older version (or a restored backup) left it, long after the worker started.
    await s.idle();
    await s.t.db.session.deleteMany({ where: { shop: SHOP } });
    await seedNonExpiringSession(s.t.db, SHOP, store.accessToken);
    const exchanges = store.tokenStats.exchanges;
    const row = await eventually(
      () => s.t.db.session.findFirstOrThrow({ where: { shop: SHOP } }),
      (r) => r.expires !== null,
      30_000,
    ).catch((e: Error) => {
      throw new Error(
        `${e.message}\n${s.worker.sink.lines
          .filter((l) => /migrat/i.test(l))
          .slice(-5)
          .join("")}`,
      );
    });
    expect(row.refreshToken).toMatch(/^v1:/);
    expect(store.tokenStats.exchanges - exchanges).toBeGreaterThanOrEqual(1);
    expect(store.tokenStats.exchangesRefused).toBe(0);
    expect(await shopsToMigrate(s.t.db)).toEqual([]);
    // Its work goes on with the pair.
    expect((await syncToEnd()).status).toBe("completed");
  }, 60_000);

  it("GIVEN Shopify revoked the shop's tokens THEN its first 401 marks it, ten minutes of orders and edits make no call to Shopify, and all of it goes out once the merchant opens the app", async () => {
    await s.idle();
    const shopId = (await s.web.shops.get(SHOP)).id;
    const from = { refused: store.tokenStats.refreshesRefused, orders: s.emu.control.state("acme").orders.length };
    store.revokeTokens();
    const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shopId, "catalog");
    await eventually(
      () => shopTokenStates(s.t.db).get(SHOP),
      (st) => st?.state === "needs-merchant",
      30_000,
    );
    await s.idle();
    const calls = shopifyCalls();

    // Ten minutes of the store's life: an order and a product edit every minute.
    const placed: number[] = [];
    const edits: string[] = [];
    const t0 = Date.now();
    const productIds = store
      .products()
      .slice(0, 10)
      .map((p) => p.id);
    for (let minute = 0; minute < 10; minute++) {
      const change = book.place({ lines: [{ productIndex: minute }], at: new Date(t0 + minute * 60_000) });
      placed.push(change.order.id);
      for (const [k, w] of change.webhooks.entries()) {
        const webhookId = `wait-${change.order.id}-${k}`;
        expect((await s.deliver(w.topic, SHOP, w.payload, { webhookId })).status).toBe(200);
      }
      const node = store.updateProduct(productIds[minute], { title: `Edited in minute ${minute}` });
      const webhookId = `wait-product-${minute}`;
      edits.push(webhookId);
      expect((await s.deliver("products/update", SHOP, productWebhookPayload(node), { webhookId })).status).toBe(200);
    }
    await s.idle();
    // Time passes: every parked job's safety wake comes due (as 15 minutes on); each meets the mark again.
    await wakeDelayedJobs();
    await s.idle();
    expect(shopifyCalls()).toBe(calls);
    expect(store.tokenStats.refreshesRefused - from.refused).toBe(1);
    expect(await merchantWaits(s.web.queues).parkedCount(SHOP)).toBeGreaterThanOrEqual(1);
    // The sync waits too (not failed).
    expect(["pending", "running"]).toContain(
      (await s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } })).status,
    );

    // The merchant opens the app: the library stores a fresh pair (sealed), afterAuth resumes the shop.
    const fresh = store.installSession();
    await new SealedSessionStorage(new PrismaSessionStorage(s.t.db), keyFrom(s.config.ENCRYPTION_KEY)).storeSession(
      new Session({ id: offlineSessionId(SHOP), shop: SHOP, state: "", isOnline: false, ...fresh }),
    );
    expect(await resumeAfterReauth(s.web, SHOP)).toBe(true);
    expect((await shopTokenStates(s.t.db).get(SHOP))?.state).toBe("ok");
    // The parked sync goes on from where it stopped; nothing that arrived meanwhile is lost.
    const done = await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.status === "completed" || r.status === "failed",
      90_000,
    );
    expect(done).toMatchObject({ status: "completed", error: null });
    await eventually(
      async () => s.emu.control.state("acme").orders,
      (orders) => placed.every((id) => orders.some((o) => o.orderId === String(id))),
      60_000,
    );
    const deliveries = await eventually(
      () => s.t.db.webhookDelivery.findMany({ where: { id: { in: edits } } }),
      (ds) => ds.length === edits.length && ds.every((d) => d.status === "done"),
      60_000,
    );
    expect(deliveries).toHaveLength(edits.length);
    expect(await merchantWaits(s.web.queues).parkedCount(SHOP)).toBe(0);
    expect(store.tokenStats.refreshesRefused - from.refused).toBe(1);
  }, 240_000);
});
