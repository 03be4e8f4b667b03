import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  t = await setup();
});
afterAll(() => t.emu.close());

const storedOrder = (orderId: string) => t.emu.control.state(t.customer).orders.find((o) => o.orderId === orderId);

describe("POST /{customer}/orders version 1", () => {
  it("stores the order and answers 200 with no body", async () => {
    const res = await t.admin("POST", "/orders", {
      orderId: "v1-1",
      createdDate: "2026-05-01 13:45",
      userId: "u-1",
      status: "delivered",
      name: "Jane Doe",
      email: "jane@example.com",
      optOutSMS: true,
      items: [{ sku: "p-1" }, { sku: "p-2" }],
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(storedOrder("v1-1")).toMatchObject({
      version: 1,
      createdDate: "2026-05-01T13:45:00.000Z",
      status: "delivered",
      optOutSMS: true,
      optOutEmail: false,
      items: [{ sku: "p-1" }, { sku: "p-2" }],
    });
  });

  it("answers the duplicate outcome (409) when the order already exists, leaving it untouched", async () => {
    await t.admin("POST", "/orders", { orderId: "v1-dup", status: "created", items: [{ sku: "p-1" }] });
    const res = await t.admin("POST", "/orders", { orderId: "v1-dup", status: "shipped", items: [{ sku: "p-1" }] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "duplicate", message: expect.any(String) });
    expect(storedOrder("v1-dup")!.status).toBe("created");
  });

  it("answers 400 to a status outside the version 1 set, a bad date or a missing orderId", async () => {
    expect((await t.admin("POST", "/orders", { orderId: "v1-bad", status: "paid" })).status).toBe(400);
    expect((await t.admin("POST", "/orders", { orderId: "v1-bad", createdDate: "yesterday" })).status).toBe(400);
    expect((await t.admin("POST", "/orders", { items: [] })).status).toBe(400);
    expect((await t.admin("POST", "/orders", { orderId: "v1-bad", version: 3 })).status).toBe(400);
  });
});

describe("POST /{customer}/orders version 2", () => {
  const order = {
    version: 2,
    orderId: "v2-1",
    createdDate: "2026-05-02T10:00:00-03:00",
    authorizedDate: "2026-05-02 14:00",
    userId: "u-2",
    name: "Maria Garcia Lopez",
    email: "maria@example.com",
    phone: "+5511999990000",
    status: "paid",
    items: [
      {
        productId: "p-10",
        sku: "p-10-blue-m",
        skuName: "Blue / M",
        sellerInfo: { id: "s-1", name: "Seller One" },
        productData: { name: "Shirt", url: "/products/shirt", categories: ["Apparel"] },
      },
      { productId: "p-11", cancelled: true, productData: { productName: "Socks", categoryName: "Hosiery" } },
    ],
  };

  it("creates and answers the order record", async () => {
    const res = await t.admin("POST", "/orders", order);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      customer: "demo-store",
      orderId: "v2-1",
      userId: "u-2",
      name: "Maria L.",
      createdDate: "2026-05-02T13:00:00.000Z",
      authorizedDate: "2026-05-02T14:00:00.000Z",
      email: "maria@example.com",
      phone: "+5511999990000",
      status: "paid",
      optOutEmail: false,
      optOutSMS: false,
      optOutWhatsApp: false,
      __v: 0,
    });
    expect(storedOrder("v2-1")!.items[0]).toMatchObject({
      sellerInfo: { id: "s-1", name: "Seller One" },
      productData: { url: "https://demo-store.example/products/shirt" },
    });
    expect(storedOrder("v2-1")!.items[1].productData).toEqual({
      productName: "Socks",
      categoryName: "Hosiery",
      categories: ["Hosiery"],
    });
  });

  it("upserts: the same orderId updates the order and increments __v", async () => {
    const first = await t.admin("POST", "/orders", { ...order, orderId: "v2-up" });
    const second = await t.admin("POST", "/orders", {
      version: 2,
      orderId: "v2-up",
      status: "shipped",
      optOutEmail: true,
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      _id: first.body._id,
      status: "shipped",
      optOutEmail: true,
      email: "maria@example.com",
      __v: 1,
    });
    expect(t.emu.control.state(t.customer).orders.filter((o) => o.orderId === "v2-up")).toHaveLength(1);
  });

  it("validates statuses of the version 2 set, for the order and its items", async () => {
    expect((await t.admin("POST", "/orders", { version: 2, orderId: "v2-bad", status: "lost" })).status).toBe(400);
    expect(
      (await t.admin("POST", "/orders", { version: 2, orderId: "v2-bad", items: [{ productId: "x", status: "lost" }] }))
        .status,
    ).toBe(400);
    expect((await t.admin("POST", "/orders", { version: 2, orderId: "v2-bad", items: [{ sku: "x" }] })).status).toBe(
      400,
    );
  });
});

describe("PUT /{customer}/orders/{orderId}", () => {
  it("updates status and dates, answering 200 with no body", async () => {
    await t.admin("POST", "/orders", { orderId: "upd-1", status: "created", items: [{ sku: "p-1" }] });
    const res = await t.admin("PUT", "/orders/upd-1", {
      status: "delivered",
      deliveredDate: "2026-06-01",
      authorizedDate: "2026-05-30 09:00",
      created: "2026-05-29 08:00",
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(storedOrder("upd-1")).toMatchObject({
      status: "delivered",
      deliveredDate: "2026-06-01",
      authorizedDate: "2026-05-30T09:00:00.000Z",
      createdDate: "2026-05-29T08:00:00.000Z",
      __v: 1,
    });
  });

  it("answers 404 for an unknown order and 400 for a status outside the update set", async () => {
    expect((await t.admin("PUT", "/orders/ghost", { status: "shipped" })).status).toBe(404);
    await t.admin("POST", "/orders", { orderId: "upd-2", items: [{ sku: "p-1" }] });
    expect((await t.admin("PUT", "/orders/upd-2", { status: "cancelled" })).status).toBe(400);
    expect((await t.admin("PUT", "/orders/upd-2", {})).status).toBe(400);
  });
});

describe("rating link", () => {
  it("returns a link to the rate page of the order, which serves HTML", async () => {
    await t.admin("POST", "/orders", { orderId: "link-1", name: "Jane Doe", items: [{ sku: "p-1" }] });
    const res = await t.admin("GET", "/rating-link/link-1");
    expect(res.status).toBe(200);
    const token = storedOrder("link-1")!.verificationTokenId;
    expect(res.body).toEqual({ link: `${t.emu.rateUrl}/rate/demo-store/${token}/link-1` });
    const page = await call(res.body.link);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect((await t.admin("GET", "/rating-link/ghost")).status).toBe(404);
  });
});
