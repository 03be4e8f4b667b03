import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReviewsClient, ReviewsPermanentError } from "../../app/.server/reviews";
import { type ContractTarget, clientFor, openTarget, uid, failure } from "./target";

// Orders (admin-api.md "Create order", "Update order", "Rating link") and the Client API's order
// review status (client-api.md "Order review status").

let target: ContractTarget;
let client: ReviewsClient;

beforeAll(async () => {
  target = await openTarget();
  client = clientFor(target.account);
});
afterAll(async () => {
  await target?.close();
});

async function product(label: string): Promise<string> {
  const sku = uid(label);
  await client.admin.sendCatalogBatch([{ sku, name: `Product ${label}`, categories: ["Apparel"] }]);
  return sku;
}

describe("create order, version 1", () => {
  it("stores a new order (200, no body)", async () => {
    const sku = await product("tee");
    const result = await client.admin.createOrderV1({
      orderId: uid("order"),
      createdDate: "2026-11-18 14:30",
      userId: "user-991",
      status: "delivered",
      deliveredDate: "2026-11-20",
      name: "Jane Doe",
      email: "jane.doe@example.com",
      phone: "+15555550123",
      pointOfSale: "e-commerce",
      deliveryMethod: "carrier",
      optOutEmail: false,
      optOutSMS: true,
      optOutWhatsApp: true,
      items: [{ sku }],
    });
    expect(result).toEqual({ outcome: "stored" });
  });

  it("answers the duplicate outcome for an order that already exists", async () => {
    const orderId = uid("order");
    const sku = await product("tee");
    await client.admin.createOrderV1({ orderId, status: "created", email: "a@example.com", items: [{ sku }] });
    await expect(
      client.admin.createOrderV1({ orderId, status: "shipped", email: "a@example.com", items: [{ sku }] }),
    ).resolves.toEqual({
      outcome: "duplicate",
    });
  });
});

describe("create order, version 2", () => {
  it("returns the order record", async () => {
    const sku = await product("tee");
    const orderId = uid("order");
    const record = await client.admin.createOrderV2({
      orderId,
      createdDate: "2026-11-18T14:30:00Z",
      authorizedDate: "2026-11-18T14:31:00Z",
      userId: "user-992",
      status: "paid",
      name: "Jane Doe",
      email: "jane.doe@example.com",
      phone: "+15555550123",
      items: [
        {
          productId: sku,
          sku: `${sku}-M-black`,
          skuName: "M / Black",
          sellerInfo: { id: "seller-1", name: "Acme Outlet" },
          productData: { name: "Tee", brand: "Acme", url: "/products/tee", categories: ["Apparel"] },
        },
      ],
    });
    expect(record).toMatchObject({
      orderId,
      status: "paid",
      email: "jane.doe@example.com",
      customer: target.account.customer,
    });
    expect(record._id).toEqual(expect.any(String));
    expect(record.__v).toEqual(expect.any(Number));
  });

  it("updates an existing order instead of duplicating it", async () => {
    const sku = await product("tee");
    const orderId = uid("order");
    const first = await client.admin.createOrderV2({
      orderId,
      status: "paid",
      email: "b@example.com",
      items: [{ productId: sku }],
    });
    const second = await client.admin.createOrderV2({ orderId, status: "shipped", items: [{ productId: sku }] });
    expect(second._id).toBe(first._id);
    expect(second.status).toBe("shipped");
    expect(second.email).toBe("b@example.com");
  });

  it("accepts per-item status and cancellation", async () => {
    const a = await product("tee");
    const b = await product("tee");
    const record = await client.admin.createOrderV2({
      orderId: uid("order"),
      status: "delivered",
      items: [{ productId: a }, { productId: b, cancelled: true, status: "cancelled" }],
    });
    expect(record.status).toBe("delivered");
  });
});

describe("update order", () => {
  it("saves status and dates (200, no body)", async () => {
    const sku = await product("tee");
    const orderId = uid("order");
    await client.admin.createOrderV1({ orderId, status: "created", items: [{ sku }] });
    await expect(
      client.admin.updateOrder(orderId, {
        status: "delivered",
        authorizedDate: "2026-11-18 15:00",
        deliveredDate: "2026-11-20",
      }),
    ).resolves.toBeUndefined();
  });

  it("an unknown order is a permanent error (status not documented)", async () => {
    const err = await failure(client.admin.updateOrder(uid("missing"), { status: "shipped" }));
    expect(err).toBeInstanceOf(ReviewsPermanentError);
  });
});

describe("rating link", () => {
  it("returns one URL for rating the order", async () => {
    const sku = await product("tee");
    const orderId = uid("order");
    await client.admin.createOrderV1({ orderId, status: "delivered", email: "c@example.com", items: [{ sku }] });
    const { link } = await client.admin.getRatingLink(orderId);
    expect(() => new URL(link)).not.toThrow();
    expect(link).toContain(encodeURIComponent(orderId));
  });
});

describe("order review status (Client API)", () => {
  it("find → verification token; by token → products not yet reviewed; find-batch → the user's orders only", async () => {
    const [a, b] = [await product("tee"), await product("cap")];
    const email = `${uid("buyer")}@example.com`;
    const mine1 = uid("order");
    const mine2 = uid("order");
    const foreign = uid("order");
    await client.admin.createOrderV2({
      orderId: mine1,
      status: "delivered",
      email,
      userId: "u-1",
      items: [{ productId: a }, { productId: b }],
    });
    await client.admin.createOrderV2({ orderId: mine2, status: "delivered", email, items: [{ productId: a }] });
    await client.admin.createOrderV2({
      orderId: foreign,
      status: "delivered",
      email: "someone.else@example.com",
      items: [{ productId: a }],
    });

    const found = await client.storefront.findOrder({ orderId: mine1, email });
    expect(found.orderId).toBe(mine1);
    expect(found.verificationTokenId).toEqual(expect.any(String));

    // userId is the alternative identification
    const byUser = await client.storefront.findOrder({ orderId: mine1, userId: "u-1" });
    expect(byUser.verificationTokenId).toBe(found.verificationTokenId);

    const status = await client.storefront.getOrderReviewStatus(found.verificationTokenId, mine1);
    expect(status.products.map((p) => p.sku).sort()).toEqual([a, b].sort());
    for (const p of status.products) {
      expect(p.active).toBe(true);
      expect(p.review).toBeNull();
    }

    const batch = await client.storefront.findOrdersBatch({ orderIds: [mine1, mine2, foreign], email });
    expect(batch.orders.map((o) => o.orderId).sort()).toEqual([mine1, mine2].sort());
    for (const o of batch.orders) {
      expect(o.verificationTokenId).toEqual(expect.any(String));
      expect(o.products.length).toBeGreaterThan(0);
    }
  });

  it("a reviewed product turns inactive and carries its review", async () => {
    const sku = await product("tee");
    const email = `${uid("buyer")}@example.com`;
    const orderId = uid("order");
    await client.admin.createOrderV2({
      orderId,
      status: "delivered",
      name: "Jane Doe",
      email,
      items: [{ productId: sku }],
    });
    const { verificationTokenId } = await client.storefront.findOrder({ orderId, email });

    const review = await client.storefront.submitReview(sku, {
      verificationTokenId,
      orderId,
      rating: 4,
      text: "Fits well.",
    });
    expect(review.verified).toBe(true);

    const status = await client.storefront.getOrderReviewStatus(verificationTokenId, orderId);
    expect(status.products).toEqual([
      expect.objectContaining({ sku, active: false, review: expect.objectContaining({ rating: 4 }) }),
    ]);
  });

  it("404 when the order is not found for that user", async () => {
    const sku = await product("tee");
    const orderId = uid("order");
    await client.admin.createOrderV1({ orderId, status: "delivered", email: "owner@example.com", items: [{ sku }] });
    for (const query of [
      { orderId, email: "intruder@example.com" },
      { orderId: uid("missing"), email: "owner@example.com" },
    ]) {
      const err = await failure(client.storefront.findOrder(query));
      expect(err).toBeInstanceOf(ReviewsPermanentError);
      expect(err.status).toBe(404);
      expect((err as ReviewsPermanentError).reason).toBe("not_found");
    }
  });

  it("the rating page of the order answers", async () => {
    const sku = await product("tee");
    const email = `${uid("buyer")}@example.com`;
    const orderId = uid("order");
    await client.admin.createOrderV2({ orderId, status: "delivered", email, items: [{ productId: sku }] });
    const { verificationTokenId } = await client.storefront.findOrder({ orderId, email });
    const url = client.ratePageUrl({
      verificationTokenId,
      orderId,
      sku,
      ratingClicked: 5,
      embedded: true,
      source: "email",
    });
    expect(url.startsWith(`${target.account.rateUrl.replace(/\/$/, "")}/rate/`)).toBe(true);
    const res = await fetch(url, { redirect: "manual" });
    await res.arrayBuffer();
    expect(res.status).toBeLessThan(400);
  });
});
