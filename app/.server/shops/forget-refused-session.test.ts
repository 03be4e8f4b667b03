import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { offlineSessionId } from "../shopify/offline-sessions";
import { forgetRefusedOfflineSession } from "./forget-refused-session";
import { shopTokenStates } from "../shopify/token-state";

// Opening the app must replace a refused non-expiring token: the library would keep using it.

const SHOP = "refused-token.myshopify.com";
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb("sqlite");
  await t.db.shop.create({ data: { domain: SHOP } });
});
afterAll(async () => {
  await t.drop();
});

const seedNonExpiring = () =>
  t.db.session.upsert({
    where: { id: offlineSessionId(SHOP) },
    create: {
      id: offlineSessionId(SHOP),
      shop: SHOP,
      state: "",
      isOnline: false,
      accessToken: "shpat_non_expiring",
      scope: "read_orders",
    },
    update: {},
  });

describe("forgetting a refused offline session", () => {
  it("GIVEN a shop whose token works THEN its offline session stays", async () => {
    await seedNonExpiring();
    expect(await forgetRefusedOfflineSession(t.db, SHOP)).toBe(false);
    expect(await t.db.session.count({ where: { id: offlineSessionId(SHOP) } })).toBe(1);
  });

  it("GIVEN Shopify refused the shop's non-expiring token THEN the session is forgotten once, so the library exchanges a new one", async () => {
    await shopTokenStates(t.db).mark(SHOP, "needs-merchant", "non-expiring token refused");
    expect(await forgetRefusedOfflineSession(t.db, SHOP)).toBe(true);
    expect(await t.db.session.count({ where: { id: offlineSessionId(SHOP) } })).toBe(0);
    // Nothing left to forget: a second page load in the same state does not loop.
    expect(await forgetRefusedOfflineSession(t.db, SHOP)).toBe(false);
  });
});
