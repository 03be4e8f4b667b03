import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/contexts";
import { OrderBook, ordersModule, startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { parseProgress } from "../../app/.server/sync/sync-runs.repository";
import { shopTokenStates } from "../../app/.server/shopify/token-state";
import { startWebStack, type WebStack } from "./web-stack";
import { startRun } from "./bulk-runs";

// Expiring offline tokens under load: tokens living 3 s (refreshed 1 s before their end) for the
// whole of a full catalog sync and a stream of order webhooks, handled by three worker processes
// that all need the shop's token at once, again and again. Shopify rotates the refresh token on
// every use and retires the previous one once the new pair is used: a process refreshing with a
// refresh token another process already spent would be refused. Nothing may be lost, nothing sent
// upstream twice, no refresh refused, and no call made with a token after it expired and had been
// replaced.

const SHOP = "token-rotation.myshopify.com";
const PRODUCTS = 800;
const ROUNDS = 5;
const ORDERS_PER_ROUND = 12;
const LIFETIME_MS = 3_000;
/**
 * How long past its end a call taken inside its token's life may arrive: stalls of a few seconds
 * happen with three workers and other suites on two cores. A process that kept a replaced token
 * would show it for the rest of the run (tens of seconds, many lifetimes), far past this.
 */
const IN_FLIGHT_SKEW_MS = 6_000;

let s: WebStack;
let store: SimulatedStore;
const book = new OrderBook({ seed: 17, count: 0, productCount: PRODUCTS });

beforeAll(async () => {
  store = await startSimulatedStore({
    shop: SHOP,
    products: PRODUCTS,
    seed: 17,
    // The bulk operation runs until every round is done (the drill then ends it): its polls keep
    // Admin calls going, so each round sees a refresh even when the orders need no Shopify read.
    // (The duration is only a backstop.)
    bulkDurationMs: 120_000,
    tokenLifetimeMs: LIFETIME_MS,
    apiKey: "test-api-key",
    apiSecret: "test-api-secret",
    modules: [ordersModule(book)],
  });
  s = await startWebStack("token-rotation", {
    SHOPIFY_ORIGIN: store.originTemplate,
    SHOPIFY_TOKEN_REFRESH_MARGIN_MS: "1000",
    BULK_POLL_INTERVAL_MS: "200",
    ORDER_TRACKING_GRACE_MS: "0",
  });
});
afterAll(async () => {
  await s?.close();
  await store?.close();
});

describe("token rotation across worker processes", () => {
  it("GIVEN 3 s tokens, a full sync and an order stream on three workers THEN one pair at a time, nothing lost or doubled, no stale expired token used", async () => {
    const shopId = await s.connect(SHOP, "acme", store);
    const workers = await Promise.all([s.startWorker(), s.startWorker(), s.startWorker()]);
    const from = { refreshes: store.tokenStats.refreshes, uses: store.tokenUses.length };

    const run = await startRun(s, store, { id: shopId, domain: SHOP }, "catalog");
    const placed: number[] = [];
    // The stream: each round's orders, then on to the next once a refresh happened (tokens turn over
    // while orders are in flight), for ROUNDS token lifetimes at least.
    for (let round = 0; round < ROUNDS; round++) {
      const refreshes = store.tokenStats.refreshes;
      for (let i = 0; i < ORDERS_PER_ROUND; i++) {
        const change = book.place({ lines: [{ productIndex: (round * ORDERS_PER_ROUND + i) % PRODUCTS }] });
        placed.push(change.order.id);
        // As Shopify does, a delivery the app did not take (a 503 while the cores are saturated)
        // comes again with the same webhook id.
        for (const [k, w] of change.webhooks.entries()) {
          const webhookId = `rotation-${change.order.id}-${k}`;
          await eventually(
            async () => (await s.deliver(w.topic, SHOP, w.payload, { webhookId })).status,
            (status) => status === 200,
            30_000,
          );
        }
      }
      await eventually(
        async () => store.tokenStats.refreshes,
        (n) => n > refreshes,
        20_000,
      );
    }

    // Every round crossed a refresh with the operation still running; it may end now.
    expect(store.bulkOperations().filter((op) => op.status === "RUNNING")).toHaveLength(1);
    await store.finishBulkOperations();
    const done = await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.status === "completed" || r.status === "failed",
      120_000,
    );
    expect(done.error, workers.map((w) => w.tail()).join("\n---\n")).toBeNull();
    expect(parseProgress(done.progress)).toMatchObject({ read: PRODUCTS, failed: 0 });

    // Nothing lost: every product and every order upstream, once.
    await eventually(
      async () => s.emu.control.state("acme").orders.length,
      (n) => n >= placed.length,
      60_000,
    );
    const upstream = s.emu.control.state("acme");
    expect(upstream.products).toHaveLength(PRODUCTS);
    expect(new Set(upstream.products.map((p) => p.sku)).size).toBe(PRODUCTS);
    expect(upstream.orders.map((o) => Number(o.orderId)).sort()).toEqual([...placed].sort());
    expect(new Set(upstream.orders.map((o) => o.orderId)).size).toBe(placed.length);
    // (The wire may carry a product twice: an order's product fetched on the order path while the
    // sync reads it too; that is the catalog's own overlap, not a token's. The service holds each once.)

    // Tokens: several lifetimes crossed, every refresh accepted (no process spent a refresh token
    // another had spent), and no token used after it expired and its replacement was issued: a call
    // may still arrive just after its token's end (taken a margin before it, then in flight while
    // three workers share two cores), and then its one retry after a 401 goes with a newer token.
    const uses = store.tokenUses.slice(from.uses);
    expect(store.tokenStats.refreshes - from.refreshes).toBeGreaterThanOrEqual(ROUNDS);
    expect(store.tokenStats.refreshesRefused).toBe(0);
    const expired = uses.filter((u) => u.verdict === "expired");
    expect(expired.filter((u) => (u.expiredForMs ?? 0) > IN_FLIGHT_SKEW_MS)).toEqual([]);
    expect(expired.length).toBeLessThanOrEqual(Math.ceil(uses.length * 0.05));
    for (const late of expired) {
      const retry = uses.find((u) => u.at >= late.at && u.token !== late.token && u.verdict === "ok");
      expect(retry, "the 401's retry went with a newer token").toBeDefined();
    }
    expect(uses.filter((u) => u.verdict === "revoked" || u.verdict === "unknown")).toEqual([]);
    expect(new Set(uses.map((u) => u.token)).size).toBeGreaterThanOrEqual(ROUNDS);
    expect((await shopTokenStates(s.t.db).get(SHOP))?.state).toBe("ok");
    // The row holds the newest pair, and it works.
    const row = await s.t.db.session.findFirstOrThrow({ where: { shop: SHOP } });
    expect(uses.at(-1)?.token === row.accessToken || row.expires!.getTime() > Date.now()).toBe(true);
  });
});
