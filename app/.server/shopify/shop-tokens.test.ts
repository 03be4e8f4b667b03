import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { keyFrom } from "../crypto/secret-box";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { deletePrefix, redisUrl, uniquePrefix } from "../../../test/helpers/redis";
import { seedNonExpiringSession, seedOfflineSession } from "../../../test/helpers/offline-session";
import { startSimulatedStore, type SimulatedStore } from "../../../sandbox/simulated-store";
import { shopTokenStates } from "./token-state";
import { adminForShop } from "./admin-for-shop";
import { SHOP_PRIMARY_DOMAIN } from "./documents";
import { ShopWaitsForMerchantError } from "./errors";
import { offlineSessionId, offlineSessions, sessionColumns } from "./offline-sessions";
import { shopTokenProvider } from "./shop-tokens";
import { createTokenEndpoint } from "./token-endpoint";
import { createTokenProvider, type TokenProvider } from "./token-provider";
import { offlineTokenStatus } from "./token-status";

// A shop that waits for its merchant, on the simulated store over HTTP, a real database and Redis:
// once Shopify refused its token (a revoked pair, a non-expiring token after 2027-01-01), the one
// call that met the refusal marks it, and no process asks Shopify anything for it after (counted on
// the store: GraphQL calls and token calls). A refusal of a token the row no longer holds (the
// merchant re-authorised meanwhile) marks nothing.

const SHOP = "shop-tokens.myshopify.com";
const KEY_TEXT = process.env.ENCRYPTION_KEY!;
const key = keyFrom(KEY_TEXT);
const silent = pino({ level: "silent" });

let store: SimulatedStore;
let t: TestDb;
let prefix: string;
const redises: Redis[] = [];

function redis() {
  const r = new Redis(redisUrl(), { maxRetriesPerRequest: 3 });
  redises.push(r);
  return r;
}

/** A process's provider, wired as the app wires it (shop-tokens.ts). */
function processTokens(fetch?: typeof globalThis.fetch): TokenProvider {
  const config = {
    SHOPIFY_API_KEY: "test-api-key",
    SHOPIFY_API_SECRET: "test-api-secret",
    SHOPIFY_ORIGIN: store.originTemplate,
    SHOPIFY_TOKEN_REFRESH_MARGIN_MS: 10_000,
    ENCRYPTION_KEY: KEY_TEXT,
    REDIS_PREFIX: prefix,
  };
  return shopTokenProvider(config, { db: t.db, redis: redis(), log: silent, fetch });
}
const adminWith = (tokens: TokenProvider) =>
  adminForShop({ log: silent, tokens, originTemplate: store.originTemplate });
/** Every call the store saw: GraphQL (any verdict) and the token endpoint (any answer). */
const shopifyCalls = () =>
  store.tokenUses.length +
  store.tokenStats.refreshes +
  store.tokenStats.refreshesRefused +
  store.tokenStats.exchanges +
  store.tokenStats.exchangesRefused;
const state = async () => (await shopTokenStates(t.db).get(SHOP))?.state;
/** The merchant opens the app: the library stores a fresh pair over the row. */
const reauthorise = () =>
  t.db.session.update({ where: { id: offlineSessionId(SHOP) }, data: sessionColumns(store.installSession(), key) });

beforeAll(async () => {
  t = await createTestDb("sqlite");
});
afterAll(async () => {
  await t.drop();
});
// A store of its own per test: revoking and migrating change its tokens for good.
beforeEach(async () => {
  store = await startSimulatedStore({
    shop: SHOP,
    products: 3,
    apiKey: "test-api-key",
    apiSecret: "test-api-secret",
    tokenLifetimeMs: 60_000,
  });
  prefix = uniquePrefix("shop-tokens");
  await t.db.session.deleteMany({});
  await t.db.shop.deleteMany({});
  await t.db.shop.create({ data: { domain: SHOP } });
});
afterEach(async () => {
  for (const r of redises.splice(0)) r.disconnect();
  await deletePrefix(prefix);
  await store.close();
});

describe("a shop waiting for its merchant", () => {
  it("GIVEN a revoked pair still fresh by its stored expiry THEN its first 401 marks the shop, and no process calls Shopify after", async () => {
    await seedOfflineSession(t.db, store, { shop: SHOP });
    const web = adminWith(processTokens());
    const gql = await web(SHOP);
    expect(await gql.query(SHOP_PRIMARY_DOMAIN)).toBeTruthy();
    store.revokeTokens();
    const before = { uses: store.tokenUses.length, refused: store.tokenStats.refreshesRefused };

    const first = await gql.query(SHOP_PRIMARY_DOMAIN).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ShopWaitsForMerchantError);
    expect(store.tokenUses.slice(before.uses).map((u) => u.verdict)).toEqual(["revoked"]);
    expect(store.tokenStats.refreshesRefused - before.refused).toBe(1);
    const status = await offlineTokenStatus(t.db, SHOP);
    expect(status).toMatchObject({ state: "needs-merchant", reason: "invalid_grant" });

    // The client in hand (its token held in memory), a new client, another process, renew, tokenFor.
    const calls = shopifyCalls();
    const worker = processTokens();
    for (let i = 0; i < 10; i++) {
      await expect(gql.query(SHOP_PRIMARY_DOMAIN)).rejects.toBeInstanceOf(ShopWaitsForMerchantError);
      await expect(adminWith(worker)(SHOP)).rejects.toBeInstanceOf(ShopWaitsForMerchantError);
      await expect(worker.tokenFor(SHOP)).rejects.toBeInstanceOf(ShopWaitsForMerchantError);
      await expect(worker.renew(SHOP, "shpat_any")).rejects.toBeInstanceOf(ShopWaitsForMerchantError);
    }
    expect(shopifyCalls()).toBe(calls);

    // The merchant opens the app: a new session, the mark cleared (afterAuth), calls go out again.
    await reauthorise();
    await shopTokenStates(t.db).clear(SHOP);
    expect(await gql.query(SHOP_PRIMARY_DOMAIN)).toBeTruthy();
    expect(store.tokenUses.at(-1)?.verdict).toBe("ok");
  });

  it("GIVEN a non-expiring token after 2027-01-01 THEN the one refused call marks the shop, with the same state as a dead refresh token", async () => {
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    store.setAfter2027(true);
    const gql = await adminWith(processTokens())(SHOP);
    const before = { uses: store.tokenUses.length, refused: store.tokenStats.exchangesRefused };
    const error = await gql.query(SHOP_PRIMARY_DOMAIN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopWaitsForMerchantError);
    // One GraphQL call (401), one migration exchange (refused), the mark.
    expect(store.tokenUses.length - before.uses).toBe(1);
    expect(store.tokenStats.exchangesRefused - before.refused).toBe(1);
    expect(await offlineTokenStatus(t.db, SHOP)).toMatchObject({
      kind: "non-expiring",
      state: "needs-merchant",
      reason: "invalid_subject_token",
    });
    const calls = shopifyCalls();
    await expect(gql.query(SHOP_PRIMARY_DOMAIN)).rejects.toBeInstanceOf(ShopWaitsForMerchantError);
    expect(shopifyCalls()).toBe(calls);
  });

  it("GIVEN a non-expiring token already exchanged elsewhere, the pair not stored yet THEN its 401 asks the exchange again and the call goes on with the pair", async () => {
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    const gql = await adminWith(processTokens())(SHOP);
    // Another process's migration: Shopify answered, the answer not stored (yet).
    await createTokenEndpoint({
      clientId: "test-api-key",
      clientSecret: "test-api-secret",
      originTemplate: store.originTemplate,
    }).migrate(SHOP, store.accessToken);
    expect(await gql.query(SHOP_PRIMARY_DOMAIN)).toBeTruthy();
    const row = await t.db.session.findFirstOrThrow({ where: { shop: SHOP } });
    expect(row.expires).not.toBeNull();
    expect(store.tokenUses.at(-1)).toMatchObject({ token: row.accessToken, verdict: "ok" });
    expect(await state()).toBe("ok");
  });
});

describe("the re-authorisation race", () => {
  it("GIVEN the merchant re-authorises while a refresh of the old pair is refused THEN the shop is not marked and the new session is used", async () => {
    await seedOfflineSession(t.db, store, { shop: SHOP });
    store.revokeTokens();
    store.expireAccessTokens();
    // The refresh leaves with the old refresh token; the merchant's new session lands before the answer.
    const meanwhile: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/admin/oauth/access_token")) await reauthorise();
      return fetch(input, init);
    };
    const refused = store.tokenStats.refreshesRefused;
    const gql = await adminWith(processTokens(meanwhile))(SHOP);
    expect(await gql.query(SHOP_PRIMARY_DOMAIN)).toBeTruthy();
    expect(store.tokenStats.refreshesRefused - refused).toBe(1);
    expect(await state()).toBe("ok");
    const row = await t.db.session.findFirstOrThrow({ where: { shop: SHOP } });
    expect(store.tokenUses.at(-1)).toMatchObject({ token: row.accessToken, verdict: "ok" });
  });

  it("GIVEN the merchant's new session lands just after the refusal was marked THEN the mark is undone", async () => {
    await seedOfflineSession(t.db, store, { shop: SHOP });
    store.revokeTokens();
    store.expireAccessTokens();
    const states = shopTokenStates(t.db);
    const tokens = createTokenProvider({
      sessions: offlineSessions(t.db, key),
      endpoint: createTokenEndpoint({
        clientId: "test-api-key",
        clientSecret: "test-api-secret",
        originTemplate: store.originTemplate,
      }),
      redis: redis(),
      prefix,
      marginMs: 10_000,
      log: silent,
      async observe(shop, outcome, reason) {
        if (outcome !== "needs-merchant") return;
        await states.mark(shop, "needs-merchant", reason ?? "refused");
        await reauthorise();
      },
      parked: async (shop) => ((await states.get(shop))?.state === "needs-merchant" ? "refused" : null),
      async unpark(shop) {
        await states.clear(shop);
      },
    });
    const got = await tokens.tokenFor(SHOP);
    expect(got.accessToken).toBe((await t.db.session.findFirstOrThrow({ where: { shop: SHOP } })).accessToken);
    expect(await state()).toBe("ok");
  });
});
