import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyVersion } from "../mapping/change-version";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { loadOrder } from "../mapping/order.test-helpers";
import { createOrderStateRepository } from "./order-state.repository";
import { emptyTracking, statusSkeleton } from "./order-tracking";
import { eventually } from "../../../test/helpers/contexts";
import { createProductDataCache, loadProductData, orderProductKeys, productDataFromCatalog } from "./product-data";

let t: TestDb;
let shopId: string;
let otherShopId: string;

beforeAll(async () => {
  t = await createTestDb("sqlite");
  shopId = (await t.db.shop.create({ data: { domain: "order-state.myshopify.com" } })).id;
  otherShopId = (await t.db.shop.create({ data: { domain: "order-state-2.myshopify.com" } })).id;
});
afterAll(async () => t.drop());

describe("order state repository", () => {
  it("GIVEN an order never seen THEN get answers null", async () => {
    expect(await createOrderStateRepository(t.db).get(shopId, "1")).toBeNull();
  });

  it("GIVEN a record of what was sent THEN it reads back, and a later partial save keeps the rest", async () => {
    const repo = createOrderStateRepository(t.db);
    const tracking = {
      ...emptyTracking(),
      order: statusSkeleton(loadOrder("paid-web-customer")),
      serviceOrderId: "#1001",
    };
    await repo.save(shopId, "5923018113099", {
      name: "#1001",
      sentUpdatedAt: new Date("2026-11-18T14:42:21Z"),
      fingerprint: "f".repeat(64),
      status: "paid",
      customerId: "7412345678901",
      deliveryDueAt: null,
      tracking,
      sentAt: new Date("2026-11-18T14:42:22Z"),
    });
    await repo.save(shopId, "5923018113099", { sentUpdatedAt: new Date("2026-11-18T15:00:00Z") });
    expect(await repo.get(shopId, "5923018113099")).toEqual({
      orderId: "5923018113099",
      name: "#1001",
      customerId: "7412345678901",
      sentUpdatedAt: new Date("2026-11-18T15:00:00Z"),
      // Saved without a version: read as its updated_at (mapping/change-version.ts legacyVersion).
      sentVersion: legacyVersion(Date.parse("2026-11-18T15:00:00Z")),
      fingerprint: "f".repeat(64),
      status: "paid",
      deliveryDueAt: null,
      tracking,
      error: null,
      errorAt: null,
      sentAt: new Date("2026-11-18T14:42:22Z"),
    });
    // Per shop: the same order id of another shop is another order.
    expect(await repo.get(otherShopId, "5923018113099")).toBeNull();
  });

  it("GIVEN orders with and without a kept name THEN one look-up answers the names it has, for this shop only", async () => {
    const repo = createOrderStateRepository(t.db);
    await repo.save(shopId, "6000000000001", { name: "#1037" });
    await repo.save(shopId, "6000000000002", { status: "paid" });
    await repo.save(otherShopId, "6000000000003", { name: "#2001" });
    const names = await repo.names(shopId, [
      "6000000000001",
      "6000000000002",
      "6000000000003",
      "6000000000001",
      "unknown",
    ]);
    expect(Object.fromEntries(names)).toEqual({ "6000000000001": "#1037" });
    expect((await repo.names(shopId, [])).size).toBe(0);
  });

  it("GIVEN an error THEN it is recorded with its time, and the sent state stays", async () => {
    const repo = createOrderStateRepository(t.db);
    await repo.recordError(shopId, "5923018113099", "POST /acme/orders → 400 bad_request");
    expect(await repo.get(shopId, "5923018113099")).toMatchObject({
      status: "paid",
      error: "POST /acme/orders → 400 bad_request",
      errorAt: expect.any(Date),
    });
  });
});

describe("productData from the catalog mirror", () => {
  it("GIVEN accepted catalog payloads THEN the order's products get their data and the others are listed as missing", async () => {
    const order = loadOrder("partially-fulfilled");
    const keys = orderProductKeys(order);
    expect(keys).toEqual(["8712345776203", "8712345808971", "8712345841739"]);
    const payload = {
      sku: keys[0],
      name: "Trail Runner 2",
      brand: "Northpeak",
      categories: ["Shoes"],
      url: "https://shop.example.com/products/tr2",
      image: "https://cdn.example.com/tr2.jpg",
      gtin: "00012345678905",
      description: "long text",
      variants: ["1"],
    };
    await t.db.productMirror.create({
      data: { shopId, productId: keys[0]!, sku: keys[0]!, payload: JSON.stringify(payload), status: "synced" },
    });
    // Refused once and never accepted: no payload, so missing.
    await t.db.productMirror.create({
      data: { shopId, productId: keys[1]!, sku: keys[1]!, status: "failed", error: "no categories" },
    });
    // Another shop's copy of the third product is not this shop's.
    await t.db.productMirror.create({
      data: {
        shopId: otherShopId,
        productId: keys[2]!,
        sku: keys[2]!,
        payload: JSON.stringify({ sku: keys[2], name: "X" }),
        status: "synced",
      },
    });

    const { byProduct, missing } = await loadProductData(t.db, shopId, keys);
    expect(Object.fromEntries(byProduct)).toEqual({
      [keys[0]!]: {
        name: "Trail Runner 2",
        brand: "Northpeak",
        categories: ["Shoes"],
        url: "https://shop.example.com/products/tr2",
        image: "https://cdn.example.com/tr2.jpg",
        gtin: "00012345678905",
        ean: undefined,
        mpn: undefined,
      },
    });
    expect(missing).toEqual([keys[1], keys[2]]);
  });

  it("GIVEN the cache THEN what it found is reused for its TTL, then read again; what was missing is read again at once", async () => {
    const [a, b] = ["8712345999001", "8712345999002"];
    const mirror = (id: string, name: string) =>
      t.db.productMirror.upsert({
        where: { shopId_productId: { shopId, productId: id } },
        create: { shopId, productId: id, sku: id, payload: JSON.stringify({ sku: id, name }), status: "synced" },
        update: { payload: JSON.stringify({ sku: id, name }) },
      });
    const names = async (cache: ReturnType<typeof createProductDataCache>) => {
      const { byProduct } = await cache.load(t.db, shopId, [a, b]);
      return [byProduct.get(a)?.name, byProduct.get(b)?.name];
    };
    await mirror(a, "First");
    // Long enough that the next lines run inside it even on a busy machine.
    const cached = createProductDataCache(3000);
    const uncached = createProductDataCache(0);
    expect(await names(cached)).toEqual(["First", undefined]);
    await mirror(a, "Second");
    await mirror(b, "Other");
    expect(await names(uncached)).toEqual(["Second", "Other"]);
    expect(await names(cached)).toEqual(["First", "Other"]);
    expect(
      await eventually(
        () => names(cached),
        (n) => n[0] === "Second",
        15_000,
      ),
    ).toEqual(["Second", "Other"]);
  });

  it("GIVEN gift cards and custom items THEN they ask for no product data", () => {
    expect(orderProductKeys(loadOrder("gift-card-only"))).toEqual([]);
    expect(productDataFromCatalog("{broken")).toBeUndefined();
  });
});
