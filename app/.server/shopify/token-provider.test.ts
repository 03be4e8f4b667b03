import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { keyFrom, open } from "../crypto/secret-box";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { deletePrefix, redisUrl, uniquePrefix } from "../../../test/helpers/redis";
import { seedNonExpiringSession, seedOfflineSession } from "../../../test/helpers/offline-session";
import { startSimulatedStore, type SimulatedStore } from "../../../sandbox/simulated-store";
import { adminForShop } from "./admin-for-shop";
import { ShopWaitsForMerchantError } from "./errors";
import { offlineSessions } from "./offline-sessions";
import { SHOP_PRIMARY_DOMAIN } from "./documents";
import { createTokenEndpoint } from "./token-endpoint";
import { createTokenProvider, type TokenProvider } from "./token-provider";

// The token provider against the simulated store's token endpoint over HTTP, a real database and
// real Redis: refresh before expiry, once after a 401, one refresh per shop across "processes"
// (providers of their own sharing the database and Redis), lost answers, dead refresh tokens.

const SHOP = "token-provider.myshopify.com";
const KEY_TEXT = process.env.ENCRYPTION_KEY!;
const key = keyFrom(KEY_TEXT);
const MARGIN_MS = 10_000;
const silent = pino({ level: "silent" });

let store: SimulatedStore;
let t: TestDb;
let prefix: string;
const redises: Redis[] = [];

function provider(opts: { fetch?: typeof globalThis.fetch; marginMs?: number } = {}): TokenProvider {
  const redis = new Redis(redisUrl(), { maxRetriesPerRequest: 3 });
  redises.push(redis);
  return createTokenProvider({
    sessions: offlineSessions(t.db, key),
    endpoint: createTokenEndpoint({
      clientId: "test-api-key",
      clientSecret: "test-api-secret",
      originTemplate: store.originTemplate,
      fetch: opts.fetch,
    }),
    redis,
    prefix,
    marginMs: opts.marginMs ?? MARGIN_MS,
    log: silent,
    retryDelayMs: 10,
  });
}

const row = () => t.db.session.findFirstOrThrow({ where: { shop: SHOP, isOnline: false } });

beforeAll(async () => {
  store = await startSimulatedStore({
    shop: SHOP,
    products: 3,
    apiKey: "test-api-key",
    apiSecret: "test-api-secret",
    tokenLifetimeMs: 60_000,
  });
  t = await createTestDb("sqlite");
});
afterAll(async () => {
  await store.close();
  await t.drop();
});
beforeEach(async () => {
  prefix = uniquePrefix("tokens");
  await t.db.session.deleteMany({});
});
afterEach(async () => {
  for (const r of redises.splice(0)) r.disconnect();
  await deletePrefix(prefix);
});

describe("token provider", () => {
  it("GIVEN a token with more than the margin left THEN it is used as stored, without a refresh", async () => {
    const installed = await seedOfflineSession(t.db, store, { shop: SHOP });
    const before = store.tokenStats.refreshes;
    expect((await provider().tokenFor(SHOP)).accessToken).toBe(installed.accessToken);
    expect(store.tokenStats.refreshes).toBe(before);
  });

  it("GIVEN a token inside the margin THEN it is refreshed first, the pair stored at once, the refresh token sealed", async () => {
    const installed = await seedOfflineSession(t.db, store, { shop: SHOP });
    const before = store.tokenStats.refreshes;
    // 60 s tokens with a 65 s margin: always inside it.
    const got = await provider({ marginMs: 65_000 }).tokenFor(SHOP);
    expect(got.accessToken).not.toBe(installed.accessToken);
    expect(store.tokenStats.refreshes).toBe(before + 1);
    const stored = await row();
    expect(stored.accessToken).toBe(got.accessToken);
    expect(stored.expires?.getTime()).toBe(got.expires?.getTime());
    expect(stored.refreshToken).toMatch(/^v1:/);
    expect(open(stored.refreshToken!, key)).not.toBe(installed.refreshToken);
    expect(stored.refreshTokenExpires!.getTime()).toBeGreaterThan(Date.now() + 80 * 86_400_000);
  });

  it("GIVEN an expired access token THEN a GraphQL call answered 401 is retried once, after one refresh", async () => {
    const installed = await seedOfflineSession(t.db, store, { shop: SHOP });
    const gql = await adminForShop({ log: silent, tokens: provider(), originTemplate: store.originTemplate })(SHOP);
    store.expireAccessTokens();
    const before = { refreshes: store.tokenStats.refreshes, uses: store.tokenUses.length };
    expect(await gql.query(SHOP_PRIMARY_DOMAIN)).toBeTruthy();
    expect(store.tokenStats.refreshes).toBe(before.refreshes + 1);
    const uses = store.tokenUses.slice(before.uses);
    expect(uses.map((u) => u.verdict)).toEqual(["expired", "ok"]);
    expect(uses[0].token).toBe(installed.accessToken);
    expect(uses[1].token).toBe((await row()).accessToken);
  });

  it("GIVEN five processes needing a refresh of one shop at once THEN Shopify sees one refresh and all get the new token", async () => {
    await seedOfflineSession(t.db, store, { shop: SHOP });
    const before = store.tokenStats.refreshes;
    const providers = Array.from({ length: 5 }, () => provider({ marginMs: 65_000 }));
    const grants = await Promise.all(providers.flatMap((p) => [p.tokenFor(SHOP), p.tokenFor(SHOP)]));
    // With a 65 s margin no 60 s token is ever "fresh": each process that waited for the lock
    // re-reads the row, sees it moved past the token it read, and takes the new one.
    expect(store.tokenStats.refreshes).toBe(before + 1);
    expect(new Set(grants.map((g) => g.accessToken))).toEqual(new Set([(await row()).accessToken]));
    expect(store.tokenStats.refreshesRefused).toBe(0);
  });

  it("GIVEN the refresh answer is lost THEN the same refresh token is asked again, and the pair it gets works", async () => {
    const installed = await seedOfflineSession(t.db, store, { shop: SHOP });
    let dropped = 0;
    const sent: string[] = [];
    // Shopify processes the first refresh, the answer never arrives.
    const lossy: typeof fetch = async (input, init) => {
      sent.push(String(init?.body));
      const res = await fetch(input, init);
      if (dropped++ === 0) throw new TypeError("fetch failed: socket hang up");
      return res;
    };
    const before = store.tokenStats.refreshes;
    const got = await provider({ fetch: lossy, marginMs: 65_000 }).tokenFor(SHOP);
    expect(store.tokenStats.refreshes).toBe(before + 2);
    expect(sent.map((b) => (JSON.parse(b) as { refresh_token: string }).refresh_token)).toEqual([
      installed.refreshToken,
      installed.refreshToken,
    ]);
    const gql = await adminForShop({ log: silent, tokens: provider(), originTemplate: store.originTemplate })(SHOP);
    expect(await gql.query(SHOP_PRIMARY_DOMAIN)).toBeTruthy();
    expect(store.tokenUses.at(-1)).toMatchObject({ token: got.accessToken, verdict: "ok" });
  });

  it("GIVEN a dead refresh token THEN the provider says the merchant must open the app, and keeps the row", async () => {
    await seedOfflineSession(t.db, store, { shop: SHOP });
    const stored = await row();
    const gql = await adminForShop({ log: silent, tokens: provider(), originTemplate: store.originTemplate })(SHOP);
    store.revokeRefreshTokens();
    store.expireAccessTokens();
    const error = await gql.query(SHOP_PRIMARY_DOMAIN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopWaitsForMerchantError);
    expect((error as ShopWaitsForMerchantError).reason).toBe("invalid_grant");
    expect(await row()).toEqual(stored);
  });

  it("GIVEN a non-expiring token THEN it is used as is; refused after 2027 THEN the merchant must open the app", async () => {
    await seedNonExpiringSession(t.db, SHOP, store.accessToken);
    const gql = await adminForShop({ log: silent, tokens: provider(), originTemplate: store.originTemplate })(SHOP);
    expect(await gql.query(SHOP_PRIMARY_DOMAIN)).toBeTruthy();
    store.setAfter2027(true);
    try {
      const error = await gql.query(SHOP_PRIMARY_DOMAIN).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ShopWaitsForMerchantError);
      expect((error as ShopWaitsForMerchantError).reason).toBe("invalid_subject_token");
    } finally {
      store.setAfter2027(false);
    }
  });
});
