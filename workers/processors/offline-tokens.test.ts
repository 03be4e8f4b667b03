import { Session } from "@shopify/shopify-api";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { seedNonExpiringSession, seedOfflineSession } from "../../test/helpers/offline-session";
import { OrderBook, ordersModule, startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { keyFrom } from "../../app/.server/crypto/secret-box";
import { startSync } from "../../app/.server/sync/start-sync";
import { SealedSessionStorage } from "../../app/.server/shopify/sealed-session-storage";
import { resumeAfterReauth } from "../../app/.server/install/resume-after-reauth";
import { shopTokenStates } from "../../app/.server/shopify/token-state";
import { offlineSessionId } from "../../app/.server/shopify/offline-sessions";
import { scheduleTokenMigration } from "./token-migration.processor";

// The workers on expiring offline tokens, against the simulated store: a full catalog sync that
// outlives several tokens (2 s each, refreshed 0.5 s before their end), a refresh token Shopify
// refuses (the shop waits for its merchant, no loop of refused refreshes, everything back when
// the merchant opens the app), and the background migration of a non-expiring token.

const SHOP = "offline-tokens.myshopify.com";
const N = 300;
let s: Stack;
let store: SimulatedStore;

beforeAll(async () => {
  // A bulk operation of 6 s polled every 100 ms: the sync's calls span three token lifetimes.
  const book = new OrderBook({ seed: 3, count: 5, productCount: N });
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
  });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await store?.close();
});

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

  it("GIVEN Shopify refuses the refresh token THEN the shop waits for its merchant without a loop, and opening the app resumes it", async () => {
    await s.idle();
    store.revokeRefreshTokens();
    store.expireAccessTokens();
    const refused = store.tokenStats.refreshesRefused;
    const first = await syncToEnd();
    expect(first.status).toBe("failed");
    const state = await shopTokenStates(s.t.db).get(SHOP);
    expect(state).toMatchObject({ state: "needs-merchant", reason: "invalid_grant" });
    // More work for the shop: Shopify is not asked for a refresh again.
    const second = await syncToEnd();
    expect(second.status).toBe("failed");
    await s.idle();
    expect(store.tokenStats.refreshesRefused - refused).toBe(1);

    // The merchant opens the app: the library's token exchange stores a fresh pair (sealed), afterAuth resumes the
    // shop.
    const fresh = store.installSession();
    await new SealedSessionStorage(new PrismaSessionStorage(s.t.db), keyFrom(s.config.ENCRYPTION_KEY)).storeSession(
      new Session({ id: offlineSessionId(SHOP), shop: SHOP, state: "", isOnline: false, ...fresh }),
    );
    expect(await resumeAfterReauth(s.web, SHOP)).toBe(true);
    expect((await shopTokenStates(s.t.db).get(SHOP))?.state).toBe("ok");
    const shopId = (await s.web.shops.get(SHOP)).id;
    const resumed = await eventually(
      async () =>
        s.t.db.syncRun.findMany({
          where: { shopId, id: { notIn: [first.id, second.id] }, startedAt: { gte: second.startedAt } },
        }),
      (runs) => runs.length === 2 && runs.every((r) => r.status === "completed"),
      90_000,
    );
    expect(new Set(resumed.map((r) => r.kind))).toEqual(new Set(["catalog", "orders"]));
  }, 240_000);

  it("GIVEN a shop on a non-expiring token THEN the worker's migration job exchanges it, once", async () => {
    // The shop as installed before expiring tokens.
    const other = SHOP;
    await s.idle();
    await s.t.db.session.deleteMany({ where: { shop: other } });
    await seedNonExpiringSession(s.t.db, other, store.accessToken);
    const exchanges = store.tokenStats.exchanges;
    expect(await scheduleTokenMigration(s.worker)).toBe(true);
    const row = await eventually(
      () => s.t.db.session.findFirstOrThrow({ where: { shop: other } }),
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
    expect(store.tokenStats.exchanges - exchanges).toBe(1);
    await s.idle();
    expect(await scheduleTokenMigration(s.worker)).toBe(false);
    // Its work goes on with the pair.
    expect((await syncToEnd()).status).toBe("completed");
  }, 60_000);
});
