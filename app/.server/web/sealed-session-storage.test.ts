import { Session } from "@shopify/shopify-api";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyFrom, open } from "../crypto/secret-box";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { SealedSessionStorage } from "./sealed-session-storage";

// What the library stores through the app's session storage: the refresh token sealed in the row,
// opened again when the library loads the session (so its own refresh in a merchant request works).

const SHOP = "sealed-sessions.myshopify.com";
const key = keyFrom(process.env.ENCRYPTION_KEY!);
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb("sqlite");
});
afterAll(async () => {
  await t.drop();
});

const offline = () =>
  new Session({
    id: `offline_${SHOP}`,
    shop: SHOP,
    state: "",
    isOnline: false,
    accessToken: "shpat_sealed_access",
    scope: "read_orders",
    expires: new Date(Date.now() + 3_600_000),
    refreshToken: "shprt_sealed_refresh",
    refreshTokenExpires: new Date(Date.now() + 90 * 86_400_000),
  });

describe("sealed session storage", () => {
  it("GIVEN the library stores an offline session THEN the row holds the refresh token sealed, and loading opens it", async () => {
    const storage = new SealedSessionStorage(new PrismaSessionStorage(t.db), key);
    expect(await storage.storeSession(offline())).toBe(true);
    const row = await t.db.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } });
    expect(row.refreshToken).toMatch(/^v1:/);
    expect(row.refreshToken).not.toContain("shprt_sealed_refresh");
    expect(open(row.refreshToken!, key)).toBe("shprt_sealed_refresh");
    expect(row.accessToken).toBe("shpat_sealed_access");

    const loaded = await storage.loadSession(`offline_${SHOP}`);
    expect(loaded?.refreshToken).toBe("shprt_sealed_refresh");
    expect(loaded?.refreshTokenExpires?.getTime()).toBe(row.refreshTokenExpires?.getTime());
    expect((await storage.findSessionsByShop(SHOP)).map((s) => s.refreshToken)).toEqual(["shprt_sealed_refresh"]);
  });

  it("GIVEN a row sealed with another key THEN the session loads without a refresh token (the library exchanges a new pair)", async () => {
    const other = new SealedSessionStorage(new PrismaSessionStorage(t.db), keyFrom("ab".repeat(32)));
    await other.storeSession(offline());
    const loaded = await new SealedSessionStorage(new PrismaSessionStorage(t.db), key).loadSession(`offline_${SHOP}`);
    expect(loaded?.accessToken).toBe("shpat_sealed_access");
    expect(loaded?.refreshToken).toBeUndefined();
  });
});
