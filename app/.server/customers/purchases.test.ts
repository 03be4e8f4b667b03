import { afterAll, describe, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { ANY_PRODUCT, createPurchaseMemory, PURCHASES_KEEP_MS } from "./purchases";

// A customer's purchases remembered on real Redis: one read answers for the product asked about,
// a new order forgets them, a reading of Shopify begun before that is not remembered after it.

const redis = testRedis();
const prefix = uniquePrefix("purchases");
const memory = createPurchaseMemory(redis, prefix);
const SHOP = "purchases.myshopify.com";
afterAll(async () => {
  redis.disconnect();
  await deletePrefix(prefix);
});

describe("purchase memory", () => {
  it("GIVEN orders whose lines were not all read THEN every product's answer holds them too, after its own orders", async () => {
    // A memory of its own: the other tests count the keys under theirs.
    const memory = createPurchaseMemory(redis, `${prefix}-partial`);
    const first = await memory.ordersWith(SHOP, "7004", "101");
    if (first.kind !== "unknown") throw new Error("expected nothing remembered yet");
    const byProduct = new Map([
      ["101", ["9003"]],
      [ANY_PRODUCT, ["9004", "9003"]],
    ]);
    expect(await memory.remember(SHOP, "7004", first.generation, byProduct)).toBe(true);
    expect(await memory.ordersWith(SHOP, "7004", "101")).toEqual({ kind: "known", orderIds: ["9003", "9004"] });
    expect(await memory.ordersWith(SHOP, "7004", "150")).toEqual({ kind: "known", orderIds: ["9004", "9003"] });
  });

  it("GIVEN a reading remembered THEN each product answers with its orders, newest first, a product not bought with none, for a few minutes", async () => {
    const first = await memory.ordersWith(SHOP, "7001", "101");
    expect(first).toEqual({ kind: "unknown", generation: "0" });
    if (first.kind !== "unknown") return;
    const byProduct = new Map([
      ["101", ["9002", "9001"]],
      ["102", ["9001"]],
    ]);
    expect(await memory.remember(SHOP, "7001", first.generation, byProduct)).toBe(true);

    expect(await memory.ordersWith(SHOP, "7001", "101")).toEqual({ kind: "known", orderIds: ["9002", "9001"] });
    expect(await memory.ordersWith(SHOP, "7001", "103")).toEqual({ kind: "known", orderIds: [] });
    // Another customer of the shop, or the same id in another shop: nothing remembered.
    expect((await memory.ordersWith(SHOP, "7002", "101")).kind).toBe("unknown");
    expect((await memory.ordersWith("other.myshopify.com", "7001", "101")).kind).toBe("unknown");
    const keys = await redis.keys(`${prefix}:purchases:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain("7001");
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(PURCHASES_KEEP_MS);
  });

  it("GIVEN a new order forgets them WHILE a reading of Shopify was under way THEN that reading is not remembered, the next one is", async () => {
    const before = await memory.ordersWith(SHOP, "7003", "101");
    if (before.kind !== "unknown") throw new Error("remembered before any reading");
    await memory.forget(SHOP, "7003");

    expect(await memory.remember(SHOP, "7003", before.generation, new Map([["102", ["9001"]]]))).toBe(false);
    const after = await memory.ordersWith(SHOP, "7003", "101");
    expect(after.kind).toBe("unknown");
    if (after.kind !== "unknown") return;
    expect(await memory.remember(SHOP, "7003", after.generation, new Map([["101", ["9005"]]]))).toBe(true);
    expect(await memory.ordersWith(SHOP, "7003", "101")).toEqual({ kind: "known", orderIds: ["9005"] });

    await memory.forget(SHOP, "7003");
    expect((await memory.ordersWith(SHOP, "7003", "101")).kind).toBe("unknown");
  });
});
