import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../../test/helpers/redis";
import { createReviewedProducts } from "./reviewed-products";

// One buyer, one review per product, within one connection to the service: on real Redis.

const prefix = uniquePrefix("reviewed");
const SHOP = "reviewed-memory.myshopify.com";
let redis: Redis;

beforeAll(() => {
  redis = testRedis();
});
afterAll(async () => {
  redis.disconnect();
  await deletePrefix(prefix);
});

it("GIVEN products a customer reviewed THEN they are remembered for that customer of that shop only", async () => {
  const memory = createReviewedProducts(redis, prefix, async () => "2026-11-26T08:00:00.000Z");
  await memory.add(SHOP, "7001", ["8100000000001", "8100000000002"]);
  expect(await memory.has(SHOP, "7001", "8100000000001")).toBe(true);
  expect(await memory.has(SHOP, "7002", "8100000000001")).toBe(false);
  expect(await memory.has("other-shop.myshopify.com", "7001", "8100000000001")).toBe(false);
  expect([...(await memory.all(SHOP, "7001"))].sort()).toEqual(["8100000000001", "8100000000002"]);
});

it("GIVEN the shop connected again (a reset service, another account) THEN the memory of the last connection no longer refuses a review", async () => {
  let connection = "2026-11-26T08:00:00.000Z";
  const memory = createReviewedProducts(redis, prefix, async () => connection);
  await memory.add(SHOP, "7003", ["8100000000001"]);
  connection = "2026-11-26T09:30:00.000Z";
  expect(await memory.has(SHOP, "7003", "8100000000001")).toBe(false);
  await memory.add(SHOP, "7003", ["8100000000005"]);
  expect([...(await memory.all(SHOP, "7003"))]).toEqual(["8100000000005"]);
});
