import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { keyFrom, open } from "../crypto/secret-box";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { seedNonExpiringSession } from "../../../test/helpers/offline-session";
import { startSimulatedStore, type SimulatedStore } from "../../../sandbox/simulated-store";
import { runCli } from "../cli/main";
import { offlineSessions, sessionColumns } from "./offline-sessions";
import { createTokenEndpoint } from "./token-endpoint";
import { migrateShopToken, migrateTokens, type MigrationDeps } from "./token-migration";
import { shopTokenStates } from "./token-state";

// The migration of non-expiring offline tokens against the simulated store's token exchange: once
// per shop, a lost answer recovered by asking again with the original token (Shopify answers the
// same pair), the original refused by Admin GraphQL afterwards, and after 2027 nothing to exchange.

const SHOP = "token-migration.myshopify.com";
const key = keyFrom(process.env.ENCRYPTION_KEY!);
const silent = pino({ level: "silent" });
let store: SimulatedStore;
let t: TestDb;

function deps(fetch?: typeof globalThis.fetch): MigrationDeps {
  return {
    db: t.db,
    sessions: offlineSessions(t.db, key),
    endpoint: createTokenEndpoint({
      clientId: "test-api-key",
      clientSecret: "test-api-secret",
      originTemplate: store.originTemplate,
      fetch,
    }),
    log: silent,
    retryDelayMs: 10,
  };
}

async function graphqlStatus(token: string): Promise<number> {
  const res = await fetch(store.graphqlEndpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": token },
    body: JSON.stringify({ query: "query ShopPrimaryDomain { shop { id } }" }),
  });
  return res.status;
}

beforeAll(async () => {
  t = await createTestDb("sqlite");
});
afterAll(async () => {
  await store?.close();
  await t.drop();
});
beforeEach(async () => {
  await store?.close();
  // A store per case: the exchange of its one non-expiring token happens once.
  store = await startSimulatedStore({ shop: SHOP, apiKey: "test-api-key", apiSecret: "test-api-secret" });
  await t.db.session.deleteMany({});
  await t.db.shop.deleteMany({});
});

describe("offline token migration", () => {
  it("GIVEN a non-expiring token THEN it is exchanged once for an expiring pair, stored sealed; the original stops working", async () => {
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    expect(await migrateShopToken(deps(), SHOP)).toBe("migrated");
    const row = await t.db.session.findFirstOrThrow({ where: { shop: SHOP } });
    expect(row.accessToken).not.toBe(store.accessToken);
    expect(row.expires!.getTime()).toBeGreaterThan(Date.now());
    expect(open(row.refreshToken!, key)).toMatch(/^shprt_/);
    expect(store.tokenStats.exchanges).toBe(1);
    expect(await graphqlStatus(store.accessToken)).toBe(401);
    expect(await graphqlStatus(row.accessToken)).toBe(200);
    // Idempotent: nothing left to migrate, Shopify not asked again.
    expect(await migrateShopToken(deps(), SHOP)).toBe("already-expiring");
    expect((await migrateTokens(deps())).shops).toBe(0);
    expect(store.tokenStats.exchanges).toBe(1);
  });

  it("GIVEN the exchange's answer is lost THEN it is asked again with the original token and gets the same pair", async () => {
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    const answers: string[] = [];
    const bodies: string[] = [];
    let calls = 0;
    const lossy: typeof fetch = async (input, init) => {
      bodies.push(String(init?.body));
      const res = await fetch(input, init);
      answers.push(await res.clone().text());
      if (calls++ === 0) throw new TypeError("fetch failed: connection reset");
      return res;
    };
    expect(await migrateShopToken(deps(lossy), SHOP)).toBe("migrated");
    expect(bodies.map((b) => (JSON.parse(b) as { subject_token: string }).subject_token)).toEqual([
      store.accessToken,
      store.accessToken,
    ]);
    const [first, second] = answers.map((a) => JSON.parse(a) as { access_token: string; refresh_token: string });
    expect(second.access_token).toBe(first.access_token);
    expect(second.refresh_token).toBe(first.refresh_token);
    expect((await t.db.session.findFirstOrThrow({ where: { shop: SHOP } })).accessToken).toBe(first.access_token);
    expect(await graphqlStatus(first.access_token)).toBe(200);
  });

  it("GIVEN after 2027 THEN the non-expiring token cannot be exchanged: the shop needs its merchant", async () => {
    store.setAfter2027(true);
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    await t.db.shop.create({ data: { domain: SHOP } });
    const d = deps();
    const states = shopTokenStates(t.db);
    const summary = await migrateTokens({
      ...d,
      observe: (shop, outcome) =>
        outcome === "needs-merchant"
          ? states.mark(shop, "needs-merchant", "non-expiring token refused").then(() => undefined)
          : undefined,
    });
    expect(summary.outcomes["needs-merchant"]).toBe(1);
    expect((await states.get(SHOP))?.state).toBe("needs-merchant");
    expect(await graphqlStatus(store.accessToken)).toBe(401);
  });

  it("GIVEN `cli tokens migrate --shop` THEN it migrates with a line per shop and a summary", async () => {
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    const lines: string[] = [];
    const io = {
      out: (l: string) => lines.push(l),
      err: (l: string) => lines.push(l),
      env: { ...process.env, DATABASE_URL: t.url, SHOPIFY_ORIGIN: store.originTemplate },
    };
    expect(await runCli(["tokens", "migrate", "--shop", SHOP], io)).toBe(0);
    expect(lines.join("\n")).toContain(`[1/1] ${SHOP}: migrated`);
    expect(lines.join("\n")).toMatch(/Migrated 1, already expiring 0, need the merchant 0, failed 0 \(of 1\)/);
    const status: string[] = [];
    await t.db.shop.create({ data: { domain: SHOP } });
    expect(await runCli(["status", "--shop", SHOP], { ...io, out: (l: string) => status.push(l) })).toBe(0);
    expect(status.join("\n")).toMatch(/Shopify token: {2}expiring, access token until .*; ok/);
  });

  it("GIVEN a shop waiting for its merchant THEN the migration leaves it alone: Shopify is not asked", async () => {
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    const summary = await migrateTokens({ ...deps(), parked: async () => "invalid_subject_token" });
    expect(summary).toMatchObject({ shops: 1, waiting: [SHOP], failed: [] });
    expect(store.tokenStats.exchanges + store.tokenStats.exchangesRefused).toBe(0);
  });

  it("GIVEN the merchant re-authorises while the exchange of the old token is refused THEN nothing is marked", async () => {
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    store.setAfter2027(true);
    // The merchant's new session lands while the exchange is on its way.
    const meanwhile: typeof fetch = async (input, init) => {
      await t.db.session.updateMany({
        where: { shop: SHOP },
        data: sessionColumns(store.installSession(), key),
      });
      return fetch(input, init);
    };
    expect(await migrateShopToken(deps(meanwhile), SHOP)).toBe("already-expiring");
    expect(store.tokenStats.exchangesRefused).toBe(1);
  });
});
