import pino from "pino";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../sandbox/emulator/server";
import { startSimulatedStore, type SimulatedStore } from "../../../sandbox/simulated-store";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { createReviewsClient, type ReviewsClient } from "../reviews";
import { createAdminGraphql } from "../shopify/admin-graphql";
import { ThrottleRegistry } from "../shopify/throttle";
import { orderLinksFromMirror } from "./order-links";
import { REVIEW_SOURCE } from "./product-review.mapper";
import { shopAppStatus } from "./status";
import { syndicateReviews, type SyndicationDeps } from "./syndicate";

// Shop app syndication on real parts: the emulator holds the catalog, orders and reviews (a buyer's
// verified review, a review without an order, a guest's), the orders mirror is the app's database,
// the simulated store answers over HTTP as Shopify does (restricted definition, cost points), and
// what was written is remembered in Redis.

const customer = "shopapp";
const shopId = "shop-shopapp-1";
const orderOf = { buyer: "5400000000101", guest: "5400000000102" };

let emu: Emulator;
let client: ReviewsClient;
let t: TestDb;
let redis: Redis;
const prefix = uniquePrefix("shopapp");
const stores: SimulatedStore[] = [];
let skus: string[] = [];
const reviewIds: Record<"verified" | "noOrder" | "guest", string> = { verified: "", noOrder: "", guest: "" };

async function newStore(granted?: string[]) {
  const store = await startSimulatedStore({ products: 3, seed: 11, grantedMetaobjects: granted });
  stores.push(store);
  const gql = createAdminGraphql({
    shop: store.shop,
    accessToken: store.accessToken,
    apiVersion: store.apiVersion,
    endpoint: store.graphqlEndpoint,
    logger: pino({ level: "silent" }),
    throttle: new ThrottleRegistry(),
  });
  return { store, gql };
}

const deps = (gql: SyndicationDeps["gql"], shop: string): SyndicationDeps => ({
  gql,
  redis,
  prefix: `${prefix}:${shop}`,
  shopId,
  reviews: client.admin,
  orderLinks: orderLinksFromMirror(t.db),
  language: "en",
  variantKey: "id",
  log: pino({ level: "silent" }),
});

beforeAll(async () => {
  redis = testRedis();
  t = await createTestDb("sqlite");
  emu = await startEmulator({
    port: 0,
    accounts: [{ customer, clientId: "shopapp-client", clientSecret: "shopapp-secret-0123456789" }],
  });
  client = createReviewsClient({
    account: {
      customer,
      clientId: "shopapp-client",
      clientSecret: "shopapp-secret-0123456789",
      apiUrl: emu.baseUrl,
      authUrl: emu.authUrl,
      rateUrl: emu.rateUrl,
    },
  });
  // The store's products are the catalog (sku = Shopify product id), as the catalog sync sends it.
  const { store } = await newStore();
  skus = store.products().map((p) => p.id.replace("gid://shopify/Product/", ""));
  await client.admin.sendCatalogBatch(skus.map((sku) => ({ sku, name: `Product ${sku}`, categories: ["Apparel"] })));
  for (const [who, orderId] of Object.entries(orderOf)) {
    await client.admin.createOrderV2({
      orderId,
      userId: who === "buyer" ? "7412345678901" : "",
      email: `${who}@example.com`,
      name: who === "buyer" ? "Ana Pereira" : "Guest Buyer",
      status: "delivered",
      createdDate: "2026-11-01 10:00",
      items: [{ productId: skus[0] }],
    });
  }
  // The mirror: the buyer's order has its customer, the guest order none.
  await t.db.orderState.create({
    data: { shopId, orderId: orderOf.buyer, name: "#1001", customerId: "7412345678901" },
  });
  await t.db.orderState.create({ data: { shopId, orderId: orderOf.guest, name: "#1002", customerId: null } });

  const verified = async (orderId: string, email: string, text: string) => {
    const { verificationTokenId } = await client.storefront.findOrder({ orderId, email });
    return (await client.storefront.submitReview(skus[0], { verificationTokenId, orderId, rating: 5, text }))._id;
  };
  reviewIds.verified = await verified(orderOf.buyer, "buyer@example.com", "Soft and warm.");
  reviewIds.guest = await verified(orderOf.guest, "guest@example.com", "Nice.");
  reviewIds.noOrder = (
    await client.storefront.submitReview(skus[1], { userId: "u-7", email: "u7@example.com", rating: 3, text: "Ok" })
  )._id;
  for (const id of Object.values(reviewIds)) emu.control.publishReview(id);
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await emu.close();
  await t.drop();
  redis.disconnect();
  await deletePrefix(prefix);
});

const changesFor = async (id: string) =>
  (await client.admin.listReviews({ includeOrderData: true })).results.filter((r) => r._id === id);

describe("Shop app syndication", () => {
  it("GIVEN an app outside the program THEN nothing is written, and the status says not granted", async () => {
    const { store, gql } = await newStore([]);
    const result = await syndicateReviews(deps(gql, "out"), []);
    expect(result).toEqual({
      program: "not-granted",
      backfill: "not-run",
      upserted: 0,
      deleted: 0,
      leftOut: 0,
      refused: 0,
    });
    expect(store.metaobjects("product_review")).toEqual([]);
    const status = await shopAppStatus({ redis, prefix: `${prefix}:out`, shopId, gql });
    expect(status).toMatchObject({ program: "not-granted", eligible: 0, syndicated: 0, inShopify: null });
  });

  it("GIVEN a shop that has not approved the new scopes (ACCESS_DENIED) THEN not granted, the run goes on", async () => {
    const { store, gql } = await newStore();
    store.injectFailure({
      status: 200,
      body: JSON.stringify({
        errors: [
          {
            message: "Access denied for standardMetaobjectDefinitionEnable field.",
            extensions: { code: "ACCESS_DENIED" },
          },
        ],
      }),
    });
    const result = await syndicateReviews(deps(gql, "scopes"), []);
    expect(result).toMatchObject({ program: "not-granted", upserted: 0 });
    expect(store.metaobjects("product_review")).toEqual([]);
  });

  it("GIVEN the program THEN the first run writes every published review tied to a customer, order and product, once", async () => {
    const { store, gql } = await newStore();
    const first = await syndicateReviews(deps(gql, "in"), []);
    expect(first).toEqual({ program: "enabled", backfill: "done", upserted: 1, deleted: 0, leftOut: 2, refused: 0 });
    const [mo] = store.metaobjects("product_review");
    expect(mo.handle).toBe(`review-${reviewIds.verified}`);
    expect(mo.fields).toMatchObject({
      rating: JSON.stringify({ value: "5", scale_min: "1", scale_max: "5" }),
      body: "Soft and warm.",
      source: REVIEW_SOURCE,
      author: "gid://shopify/Customer/7412345678901",
      order: `gid://shopify/Order/${orderOf.buyer}`,
      product: `gid://shopify/Product/${skus[0]}`,
      language: "en",
    });
    expect(Date.parse(mo.fields.submitted_at)).not.toBeNaN();

    // The same review again (a retried job, the feed naming it): one metaobject still.
    const again = await syndicateReviews(deps(gql, "in"), await changesFor(reviewIds.verified));
    expect(again).toMatchObject({ upserted: 1, deleted: 0 });
    expect(store.metaobjects("product_review")).toHaveLength(1);

    const status = await shopAppStatus({ redis, prefix: `${prefix}:in`, shopId, gql });
    expect(status).toEqual({
      program: "enabled",
      checkedAt: expect.any(String),
      backfill: "done",
      eligible: 3,
      syndicated: 1,
      leftOut: [
        { reason: "no_order", count: 1 },
        { reason: "no_customer", count: 1 },
      ],
      inShopify: 1,
    });
  });

  it("GIVEN a syndicated review removed in the service THEN its metaobject is deleted and it is no longer counted", async () => {
    const { store, gql } = await newStore();
    await syndicateReviews(deps(gql, "rm"), []);
    expect(store.metaobjects("product_review")).toHaveLength(1);
    await client.admin.moderateReview(reviewIds.verified, false);
    const changes = await changesFor(reviewIds.verified);
    expect(changes[0].status).not.toBe("published");
    const result = await syndicateReviews(deps(gql, "rm"), changes);
    expect(result).toMatchObject({ upserted: 0, deleted: 1 });
    expect(store.metaobjects("product_review")).toEqual([]);
    const status = await shopAppStatus({ redis, prefix: `${prefix}:rm`, shopId, gql });
    expect(status).toMatchObject({ syndicated: 0, eligible: 2, inShopify: 0 });
    // Published again: written again under the same handle.
    emu.control.publishReview(reviewIds.verified);
    await syndicateReviews(deps(gql, "rm"), await changesFor(reviewIds.verified));
    expect(store.metaobjects("product_review").map((m) => m.handle)).toEqual([`review-${reviewIds.verified}`]);
  });

  it("GIVEN the merchant deleted the definition THEN the next run switches it on again and writes every review anew", async () => {
    const { store, gql } = await newStore();
    await syndicateReviews(deps(gql, "gone"), []);
    expect(store.metaobjects("product_review")).toHaveLength(1);
    store.deleteMetaobjectDefinition("product_review");
    const result = await syndicateReviews(deps(gql, "gone"), await changesFor(reviewIds.verified));
    expect(result).toMatchObject({ program: "enabled", backfill: "done" });
    expect(store.metaobjectDefinitionEnabled("product_review")).toBe(true);
    expect(store.metaobjects("product_review").map((m) => m.handle)).toEqual([`review-${reviewIds.verified}`]);
    const status = await shopAppStatus({ redis, prefix: `${prefix}:gone`, shopId, gql });
    expect(status).toMatchObject({ syndicated: 1, eligible: 3, inShopify: 1 });
  });

  it("GIVEN an empty cost bucket THEN the writes wait for Shopify's points and all land", async () => {
    const { store, gql } = await newStore();
    store.setAvailablePoints(0);
    const result = await syndicateReviews(deps(gql, "slow"), []);
    expect(result).toMatchObject({ program: "enabled", upserted: 1 });
    expect(store.metaobjects("product_review")).toHaveLength(1);
    // Shopify answered THROTTLED at first; the client waited for the points and sent it again.
    expect(store.requests.some((r) => r.throttled)).toBe(true);
    expect(store.requests.filter((r) => r.operationName === "MetaobjectUpsert" && !r.throttled)).toHaveLength(1);
  });
});
