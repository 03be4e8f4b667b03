import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import type { DbProvider } from "../db/client";
import type { AdminReview } from "../reviews";
import { createShopRepository } from "../shops/shop.repository";
import { customersDataRequest, customersRedact, shopRedact } from "../compliance/customer-data";
import { createCustomerReviewIndex } from "./customer-review.repository";
import { indexCustomerReviews } from "./index-customer-reviews";

// The customer → review index on both databases: filled from the reviews a back-sync run read,
// resolved through the orders mirror; paged newest first; a review read again is not doubled;
// customers/redact removes that customer's rows only, shop/redact the shop's.

const SHOP = "customer-index.myshopify.com";
const ANA = "7412345678901";
const BEN = "7412345678902";

const review = (id: string, over: Partial<AdminReview> = {}): AdminReview =>
  ({
    _id: id,
    customer: "acme",
    userId: ANA,
    name: "Ana L.",
    sku: "8100000000007",
    text: "Good",
    status: "pending",
    rating: 5,
    created: "2026-11-20T10:00:00.000Z",
    ...over,
  }) as AdminReview;

describe.each<DbProvider>(["sqlite", "postgresql"])("customer review index on %s", (provider) => {
  let t: TestDb;
  let shopId: string;
  let otherShopId: string;
  const ctx = () => ({
    db: t.db,
    shops: createShopRepository(t.db, "0".repeat(64)),
    pending: { clear: async () => undefined } as never,
  });

  beforeAll(async () => {
    t = await createTestDb(provider);
    shopId = (await t.db.shop.create({ data: { domain: SHOP } })).id;
    otherShopId = (await t.db.shop.create({ data: { domain: "other-index.myshopify.com" } })).id;
    // The orders mirror: Ana's order, Ben's order sent under its name, a guest order.
    await t.db.orderState.createMany({
      data: [
        { shopId, orderId: "5900000000001", name: "#1001", customerId: ANA },
        { shopId, orderId: "5900000000002", name: "#1002", customerId: BEN },
        { shopId, orderId: "5900000000003", name: "#1003", customerId: null },
        { shopId: otherShopId, orderId: "5900000000009", name: "#1009", customerId: "7499999999999" },
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("GIVEN a run's reviews THEN each known customer's is indexed, guests' and strangers' counted", async () => {
    const outcome = await indexCustomerReviews(t.db, shopId, [
      review("r1", { created: "2026-11-20T10:00:00.000Z" }),
      review("r2", { created: "2026-11-22T10:00:00.000Z", sku: "8100000000014" }),
      review("r3", { userId: "", orderId: "#1002", created: "2026-11-21T10:00:00.000Z" }),
      review("r4", { userId: "guest-9f2c1a", orderId: "#1003" }),
      // Another shop's customer: the mirror of this shop does not know them.
      review("r5", { userId: "7499999999999" }),
    ]);
    expect(outcome).toEqual({ indexed: 3, unresolved: 2 });
  });

  it("GIVEN a review read again (moderated later) THEN still one row", async () => {
    expect(await indexCustomerReviews(t.db, shopId, [review("r1", { status: "published" })])).toEqual({
      indexed: 1,
      unresolved: 0,
    });
    expect(await t.db.customerReview.count({ where: { shopId, reviewId: "r1" } })).toBe(1);
  });

  it("GIVEN a customer's reviews THEN pages newest first, saying whether more follow", async () => {
    const index = createCustomerReviewIndex(t.db);
    await indexCustomerReviews(t.db, shopId, [review("r6", { created: "2026-11-25T10:00:00.000Z" })]);
    const first = await index.page(shopId, ANA, { offset: 0, limit: 2 });
    expect(first.rows.map((r) => r.reviewId)).toEqual(["r6", "r2"]);
    expect(first.more).toBe(true);
    const second = await index.page(shopId, ANA, { offset: 2, limit: 2 });
    expect(second).toEqual({
      rows: [{ customerId: ANA, reviewId: "r1", sku: "8100000000007", reviewedAt: new Date("2026-11-20T10:00:00Z") }],
      more: false,
    });
    expect((await index.page(shopId, BEN, { offset: 0, limit: 5 })).rows.map((r) => r.reviewId)).toEqual(["r3"]);
  });

  it("GIVEN customers/data_request THEN the record lists the review ids kept for the customer", async () => {
    await customersDataRequest(ctx(), {
      shop: SHOP,
      topic: "customers/data_request",
      payload: { shop_domain: SHOP, customer: { id: Number(BEN) }, orders_requested: [], data_request: { id: 9 } },
    });
    const row = await t.db.complianceRequest.findFirst({
      where: { shopDomain: SHOP, topic: "customers/data_request" },
    });
    expect(JSON.parse(row!.record).reviewsIndexed).toEqual([
      { reviewId: "r3", productId: "8100000000007", submittedAt: "2026-11-21T10:00:00.000Z" },
    ]);
  });

  it("GIVEN customers/redact for Ana THEN her rows go, Ben's stay; shop/redact then leaves none", async () => {
    await customersRedact(ctx(), {
      shop: SHOP,
      topic: "customers/redact",
      payload: { shop_domain: SHOP, customer: { id: Number(ANA) }, orders_to_redact: [] },
    });
    expect(await t.db.customerReview.count({ where: { shopId, customerId: ANA } })).toBe(0);
    expect(await t.db.customerReview.count({ where: { shopId, customerId: BEN } })).toBe(1);
    const record = await t.db.complianceRequest.findFirst({ where: { shopDomain: SHOP, topic: "customers/redact" } });
    expect(JSON.parse(record!.record)).toMatchObject({ deletedReviewIndexRows: 3 });

    await shopRedact(ctx(), { shop: SHOP, topic: "shop/redact", payload: { shop_domain: SHOP } });
    expect(await t.db.customerReview.count({ where: { shopId } })).toBe(0);
  });
});
