import { afterAll, describe, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { createResendLedger } from "./resend-ledger";

// The resend ledger on real Redis (one Redis in the integration project, a Redis Cluster in the
// cluster project): one resend per product or order per window, the Sync page's report, and a
// switch of account that forgets one shop's claims and none of another's.

const prefix = uniquePrefix("resend-ledger");
const redis = testRedis({ maxRetriesPerRequest: 3 });
const ledger = createResendLedger(redis, prefix);
const HOUR = 3_600_000;
afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
});

describe("resend ledger", () => {
  it("GIVEN a product claimed THEN it is not claimed again in its window, while another product or kind is", async () => {
    expect(await ledger.claim("shop-claims", "product", "7001", HOUR)).toBe(true);
    expect(await ledger.claim("shop-claims", "product", "7001", HOUR)).toBe(false);
    expect(await ledger.claim("shop-claims", "product", "7002", HOUR)).toBe(true);
    expect(await ledger.claim("shop-claims", "order", "7001", HOUR)).toBe(true);
    expect(await ledger.claim("shop-other", "product", "7001", HOUR)).toBe(true);
  });

  it("GIVEN resends recorded THEN the report adds them up, with the last event's time", async () => {
    expect(await ledger.report("shop-report")).toBeNull();
    await ledger.record("shop-report", { products: 3 }, new Date("2026-11-27T08:00:00Z"));
    await ledger.record("shop-report", { orders: 1, denied: 2 }, new Date("2026-11-27T08:10:00Z"));
    expect(await ledger.report("shop-report")).toEqual({
      reason: "unknown",
      products: 3,
      orders: 1,
      denied: 2,
      at: "2026-11-27T08:10:00.000Z",
    });
  });

  it("GIVEN a switch of account THEN the report starts over and the shop's claims are gone, another shop's kept", async () => {
    for (const id of ["8001", "8002", "8003"]) await ledger.claim("shop-switch", "product", id, HOUR);
    await ledger.claim("shop-switch", "order", "9001", HOUR);
    await ledger.claim("shop-kept", "product", "8001", HOUR);
    await ledger.record("shop-switch", { products: 3, denied: 1 });

    await ledger.recordAccountSwitch("shop-switch", { products: 40, orders: 5 }, new Date("2026-11-27T09:00:00Z"));
    expect(await ledger.report("shop-switch")).toEqual({
      reason: "account",
      products: 40,
      orders: 5,
      denied: 0,
      at: "2026-11-27T09:00:00.000Z",
    });
    expect(await ledger.claim("shop-switch", "product", "8002", HOUR)).toBe(true);
    expect(await ledger.claim("shop-switch", "order", "9001", HOUR)).toBe(true);
    expect(await ledger.claim("shop-kept", "product", "8001", HOUR)).toBe(false);
  });
});
