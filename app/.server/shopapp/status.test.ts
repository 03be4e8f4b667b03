import pino from "pino";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulatedStore, type SimulatedStore } from "../../../sandbox/simulated-store";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { createAdminGraphql } from "../shopify/admin-graphql";
import { ThrottleRegistry } from "../shopify/throttle";
import { shopAppStatus } from "./status";
import { createSyndicationState } from "./syndication-state";

// The admin's Shop app status from what syndication recorded (real Redis) and Shopify's own count
// (the simulated store over HTTP); a Shopify that fails leaves its count unknown, not the page broken.

let redis: Redis;
let store: SimulatedStore;
const prefix = uniquePrefix("shopapp-status");

beforeAll(async () => {
  redis = testRedis();
  store = await startSimulatedStore({ products: 1, seed: 5 });
});
afterAll(async () => {
  await store.close();
  redis.disconnect();
  await deletePrefix(prefix);
});

const gql = () =>
  createAdminGraphql({
    shop: store.shop,
    accessToken: store.accessToken,
    apiVersion: store.apiVersion,
    endpoint: store.graphqlEndpoint,
    logger: pino({ level: "silent" }),
    throttle: new ThrottleRegistry(),
  });

describe("Shop app status", () => {
  it("GIVEN a shop the back-sync never asked about THEN unknown, nothing counted, no call to Shopify", async () => {
    const before = store.requests.length;
    const s = await shopAppStatus({ redis, prefix, shopId: "never", gql: gql() });
    expect(s).toEqual({
      program: "unknown",
      checkedAt: null,
      backfill: "not-started",
      eligible: 0,
      syndicated: 0,
      leftOut: [],
      inShopify: null,
    });
    expect(store.requests.length).toBe(before);
  });

  it("GIVEN recorded outcomes and a pass under way THEN eligible = syndicated + left out, reasons in a fixed order", async () => {
    const state = createSyndicationState(redis, prefix, "busy");
    await state.saveProgram({
      state: "enabled",
      checkedAt: "2026-11-27T09:00:00.000Z",
      backfill: { done: false, skip: 250 },
    });
    await state.record({
      syndicated: [
        ["r1", "gid://shopify/Metaobject/1"],
        ["r2", "gid://shopify/Metaobject/2"],
      ],
      leftOut: [
        ["r3", "refused"],
        ["r4", "no_customer"],
        ["r5", "no_order"],
        ["r6", "no_order"],
      ],
      gone: [],
    });
    // A review later removed: counted nowhere.
    await state.record({ syndicated: [], leftOut: [], gone: ["r2"] });
    const s = await shopAppStatus({ redis, prefix, shopId: "busy" });
    expect(s).toEqual({
      program: "enabled",
      checkedAt: "2026-11-27T09:00:00.000Z",
      backfill: "in-progress",
      eligible: 5,
      syndicated: 1,
      leftOut: [
        { reason: "no_order", count: 2 },
        { reason: "no_customer", count: 1 },
        { reason: "refused", count: 1 },
      ],
      inShopify: null,
    });
  });

  it("GIVEN Shopify unavailable for the count (503) THEN the status still answers, its count unknown", async () => {
    const state = createSyndicationState(redis, prefix, "throttled");
    await state.saveProgram({ state: "enabled", checkedAt: "2026-11-27T09:00:00.000Z", backfill: { done: true } });
    store.injectFailure({ status: 503 });
    const s = await shopAppStatus({ redis, prefix, shopId: "throttled", gql: gql() });
    expect(s).toMatchObject({ program: "enabled", backfill: "done", inShopify: null });
  });
});
