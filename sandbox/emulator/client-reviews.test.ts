import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, product, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
let qualityId = "";
let fitId = "";

beforeAll(async () => {
  t = await setup();
  t.emu.control.seed({ customer: t.customer, products: 4 });
  const attrs = t.emu.control.state(t.customer).attributes;
  qualityId = attrs.find((a) => a.title === "Quality")!._id;
  fitId = attrs.find((a) => a.title === "Fit")!._id;
  await t.admin("POST", "/products/batch", {
    products: [
      product("shirt", { categories: ["Apparel"] }),
      product("mug", { categories: ["Home"] }),
      product("cap", { categories: ["Accessories"] }),
    ],
  });
  await t.admin("POST", "/orders", {
    orderId: "A-100",
    userId: "cust-1",
    email: "Jane.Doe@Example.com",
    name: "Jane Doe",
    status: "delivered",
    items: [{ sku: "shirt" }, { sku: "mug" }],
  });
});
afterAll(() => t.emu.close());

const direct = (sku: string, extra: Record<string, unknown> = {}) =>
  t.client("POST", `/${sku}/review`, { userId: "u-9", email: "u9@example.com", rating: 4, text: "Nice", ...extra });

describe("POST /{customer}/{sku}/review", () => {
  it("direct identification (userId + email): status sent, updateToken and the product's attributes", async () => {
    const res = await direct("shirt", { recommended: true, source: "kiosk" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      status: "sent",
      created: expect.any(String),
      customer: "demo-store",
      userId: "u-9",
      name: "Customer",
      sku: "shirt",
      text: "Nice",
      recommended: true,
      rating: 4,
      verified: false,
      helpful: 0,
      unhelpful: 0,
      availableAttributes: [
        expect.objectContaining({
          _id: qualityId,
          title: "Quality",
          type: "stars",
          categories: null,
          order: 1,
          customer: "demo-store",
          __v: 0,
        }),
        expect.objectContaining({
          _id: fitId,
          type: "multiple-choice",
          choices: ["Runs small", "True to size", "Runs large"],
        }),
      ],
      updateToken: expect.any(String),
    });
    expect((await direct("mug")).body.availableAttributes.map((a: { _id: string }) => a._id)).toEqual([qualityId]);
    const stored = t.emu.control.state(t.customer).reviews.find((r) => r._id === res.body._id)!;
    expect(stored).toMatchObject({ status: "pending", source: "kiosk" });
  });

  it("answers 400 without an identification pair or with a rating outside 1..5, 404 for an unknown product", async () => {
    expect((await t.client("POST", "/shirt/review", { userId: "u", rating: 5 })).status).toBe(400);
    expect((await t.client("POST", "/shirt/review", { email: "e@x.com", rating: 5 })).status).toBe(400);
    for (const rating of [0, 6, 4.5, "5", undefined]) expect((await direct("shirt", { rating })).status).toBe(400);
    expect((await direct("no-such-product")).status).toBe(404);
  });

  it("verified flow: orders/find (email first, case-insensitive) → review with the token → verified, name from the order", async () => {
    const found = await t.client("POST", "/orders/find", { orderId: "A-100", email: "jane.doe@example.com" });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ verificationTokenId: expect.any(String), orderId: "A-100" });
    const byUser = await t.client("POST", "/orders/find", {
      orderId: "A-100",
      email: "wrong@example.com",
      userId: "cust-1",
    });
    expect(byUser.body).toEqual(found.body);
    expect((await t.client("POST", "/orders/find", { orderId: "A-100", email: "wrong@example.com" })).status).toBe(404);
    expect((await t.client("POST", "/orders/find", { orderId: "nope", userId: "cust-1" })).status).toBe(404);
    expect((await t.client("POST", "/orders/find", { orderId: "A-100" })).status).toBe(400);

    const status = `/orders/${found.body.verificationTokenId}/A-100`;
    expect((await t.client("GET", status)).body).toEqual({
      products: [
        { sku: "shirt", active: true, review: null },
        { sku: "mug", active: true, review: null },
      ],
    });
    const review = await t.client("POST", "/shirt/review", { ...found.body, rating: 5, text: "Perfect fit" });
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({ status: "sent", verified: true, name: "Jane D.", userId: "cust-1" });
    expect((await t.client("GET", status)).body.products).toEqual([
      { sku: "shirt", active: false, review: { rating: 5, text: "Perfect fit", created: review.body.created } },
      { sku: "mug", active: true, review: null },
    ]);

    expect((await t.client("POST", "/shirt/review", { ...found.body, rating: 4 })).status).toBe(409);
    expect((await t.client("POST", "/cap/review", { ...found.body, rating: 4 })).status).toBe(400);
    expect(
      (await t.client("POST", "/mug/review", { verificationTokenId: "forged", orderId: "A-100", rating: 4 })).status,
    ).toBe(403);
    expect(
      (await t.client("POST", "/mug/review", { verificationTokenId: found.body.verificationTokenId, rating: 4 }))
        .status,
    ).toBe(400);
    expect((await t.client("GET", "/orders/forged/A-100")).status).toBe(404);
  });

  it("stores a review with a forbidden word as filtered", async () => {
    const res = await direct("mug", { text: "what a forbiddenword" });
    expect(res.body.status).toBe("filtered");
  });
});

describe("photo and video upload", () => {
  it("presign → PUT to the upload URL → confirm attaches the photo", async () => {
    const review = await direct("shirt");
    const { _id, updateToken } = review.body;
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    const pre = await t.client("POST", `/shirt/review/${_id}/pictures/presign`, {
      updateToken,
      mimeType: "image/png",
      fileSize: bytes.length,
    });
    expect(pre.status).toBe(200);
    expect(pre.body.urls).toEqual([
      {
        uploadUrl: expect.stringMatching(new RegExp(`^${t.emu.origin}/uploads/`)),
        confirmUrl: `/demo-store/shirt/review/${_id}/pictures/confirm`,
        fileKey: expect.stringMatching(/\.png$/),
      },
    ]);
    const { uploadUrl, fileKey } = pre.body.urls[0];

    const early = await t.client("POST", `/shirt/review/${_id}/pictures/confirm`, { updateToken, keys: [fileKey] });
    expect(early.status).toBe(400);
    expect(
      (await fetch(uploadUrl, { method: "PUT", headers: { "content-type": "image/jpeg" }, body: bytes })).status,
    ).toBe(403);
    expect(
      (await fetch(uploadUrl.split("?")[0], { method: "PUT", headers: { "content-type": "image/png" }, body: bytes }))
        .status,
    ).toBe(403);
    expect(
      (await fetch(uploadUrl, { method: "PUT", headers: { "content-type": "image/png" }, body: Buffer.from("short") }))
        .status,
    ).toBe(400);
    const put = await fetch(uploadUrl, { method: "PUT", headers: { "content-type": "image/png" }, body: bytes });
    expect(put.status).toBe(200);
    expect(put.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);

    const confirm = await t.client("POST", pre.body.urls[0].confirmUrl.replace("/demo-store", ""), {
      updateToken,
      keys: [fileKey],
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({
      _id,
      hasPicture: true,
      pictures: [{ _id: expect.any(String), url: expect.stringContaining(fileKey), thumb: expect.any(String) }],
    });
    const served = await fetch(confirm.body.pictures[0].url);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
  });

  it("checks the updateToken (403), the media type and size (400)", async () => {
    const { _id, updateToken } = (await direct("shirt")).body;
    const presign = (body: Record<string, unknown>) =>
      t.client("POST", `/shirt/review/${_id}/pictures/presign`, {
        updateToken,
        mimeType: "image/jpeg",
        fileSize: 10,
        ...body,
      });
    expect((await presign({ updateToken: "wrong" })).status).toBe(403);
    expect((await presign({ updateToken: undefined })).status).toBe(403);
    expect((await presign({ mimeType: "application/pdf" })).status).toBe(400);
    expect((await presign({ fileSize: 11 * 1024 * 1024 })).status).toBe(400);
    expect(
      (
        await t.client("POST", `/mug/review/${_id}/pictures/presign`, {
          updateToken,
          mimeType: "image/jpeg",
          fileSize: 10,
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.client("POST", `/shirt/review/${_id}/pictures/confirm`, { updateToken: "wrong", keys: ["x"] })).status,
    ).toBe(403);
  });

  it("video: presign → PUT → confirm sets the review's video", async () => {
    const { _id, updateToken } = (await direct("shirt")).body;
    const bytes = Buffer.from("not-really-an-mp4");
    const pre = await t.client("POST", `/shirt/review/${_id}/video/presign`, {
      updateToken,
      mimeType: "video/mp4",
      fileSize: bytes.length,
    });
    expect(pre.body).toEqual({
      uploadUrl: expect.any(String),
      confirmUrl: `/demo-store/shirt/review/${_id}/video/confirm`,
      fileKey: expect.stringMatching(/\.mp4$/),
    });
    expect(
      (
        await t.client("POST", `/shirt/review/${_id}/video/presign`, {
          updateToken,
          mimeType: "image/png",
          fileSize: 3,
        })
      ).status,
    ).toBe(400);
    await fetch(pre.body.uploadUrl, { method: "PUT", headers: { "content-type": "video/mp4" }, body: bytes });
    const confirm = await t.client("POST", `/shirt/review/${_id}/video/confirm`, {
      updateToken,
      key: pre.body.fileKey,
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({
      hasVideo: true,
      video: { fileKey: pre.body.fileKey, converted: true, url: expect.any(String), thumb: expect.any(String) },
    });
  });
});

describe("attributes and helpful marks", () => {
  it("stores stars and multiple-choice answers; rejects values out of range and unknown attributes", async () => {
    const { _id, updateToken } = (await direct("shirt")).body;
    const send = (attributes: unknown) =>
      t.client("POST", `/shirt/review/${_id}/attributes`, { updateToken, attributes });
    const ok = await send([
      { _id: qualityId, value: 4 },
      { _id: fitId, value: 2, response: "Runs large" },
    ]);
    expect(ok.status).toBe(200);
    expect(ok.body.attributes).toEqual([
      { title: "Quality", value: 4, type: "stars", scaleMin: 1, scaleMax: 5 },
      { title: "Fit", value: 2, type: "multiple-choice", response: "Runs large" },
    ]);
    expect((await send([{ _id: qualityId, value: 6 }])).status).toBe(400);
    expect((await send([{ _id: fitId, value: 3 }])).status).toBe(400);
    expect((await send([{ _id: fitId, value: 1, response: "Runs large" }])).status).toBe(400);
    expect((await send([{ _id: "000000000000000000000000", value: 1 }])).status).toBe(400);
    const mug = (await direct("mug")).body;
    const fitOnMug = await t.client("POST", `/mug/review/${mug._id}/attributes`, {
      updateToken: mug.updateToken,
      attributes: [{ _id: fitId, value: 1 }],
    });
    expect(fitOnMug.status).toBe(400);
    expect(
      (
        await t.client("POST", `/shirt/review/${_id}/attributes`, {
          updateToken: "nope",
          attributes: [{ _id: qualityId, value: 4 }],
        })
      ).status,
    ).toBe(403);
  });

  it("like/dislike: one vote per voter, answers the review with its counters; unpublished reviews 404", async () => {
    const { _id } = (await direct("cap")).body;
    const like = (voter: Record<string, string>, kind = "like") =>
      t.client("POST", `/cap/review/${_id}/${kind}`, voter);
    expect((await like({ userId: "a", email: "a@x.com" })).status).toBe(404);
    t.emu.control.publishReview(_id);
    expect((await like({ userId: "a", email: "a@x.com" })).body).toMatchObject({ _id, helpful: 1, unhelpful: 0 });
    expect((await like({ userId: "a", email: "A@x.com" })).body).toMatchObject({ helpful: 1, unhelpful: 0 });
    expect((await like({ userId: "a", email: "a@x.com" }, "dislike")).body).toMatchObject({ helpful: 0, unhelpful: 1 });
    expect((await like({ email: "b@x.com" })).body).toMatchObject({ helpful: 1, unhelpful: 1 });
    expect((await like({})).status).toBe(400);
  });
});

describe("POST /{customer}/orders/find-batch", () => {
  it("answers the user's orders with product info and sellers; foreign orders are silently absent", async () => {
    await t.admin("POST", "/orders", {
      version: 2,
      orderId: "B-1",
      email: "buyer@example.com",
      userId: "buyer",
      items: [
        { productId: "shirt", sku: "shirt-m", sellerInfo: { id: "s1", name: "Seller One" } },
        { productId: "mug", sellerInfo: { id: "s1", name: "Seller One" } },
        { productId: "cap", cancelled: true },
        { productId: "ghost", productData: { name: "Ghost Lamp", brandName: "Boo", url: "/products/ghost" } },
      ],
    });
    await t.admin("POST", "/orders", { orderId: "B-2", email: "other@example.com", items: [{ sku: "mug" }] });
    const res = await t.client("POST", "/orders/find-batch", {
      orderIds: ["B-2", "B-1", "missing"],
      email: "buyer@example.com",
    });
    expect(res.status).toBe(200);
    expect(res.body.orders).toHaveLength(1);
    expect(res.body.orders[0]).toEqual({
      orderId: "B-1",
      verificationTokenId: expect.any(String),
      products: [
        {
          sku: "shirt",
          active: true,
          review: null,
          product: { sku: "shirt", name: "Product shirt", brand: null, mpn: null, url: null, image: null },
        },
        {
          sku: "mug",
          active: true,
          review: null,
          product: expect.objectContaining({ sku: "mug", name: "Product mug" }),
        },
        {
          sku: "ghost",
          active: true,
          review: null,
          product: {
            sku: "ghost",
            name: "Ghost Lamp",
            brand: "Boo",
            mpn: null,
            url: "https://demo-store.example/products/ghost",
            image: null,
          },
        },
      ],
      sellers: [{ id: "s1", name: "Seller One" }],
    });
    const byUser = await t.client("POST", "/orders/find-batch", { orderIds: ["B-1"], userId: "buyer" });
    expect(byUser.body.orders).toHaveLength(1);
  });

  it("answers 400 over 20 orderIds, with none, or without email/userId", async () => {
    const ids = Array.from({ length: 21 }, (_, i) => `X-${i}`);
    expect((await t.client("POST", "/orders/find-batch", { orderIds: ids, email: "buyer@example.com" })).status).toBe(
      400,
    );
    expect(
      (await t.client("POST", "/orders/find-batch", { orderIds: ids.slice(0, 20), email: "buyer@example.com" })).status,
    ).toBe(200);
    expect((await t.client("POST", "/orders/find-batch", { orderIds: [], email: "buyer@example.com" })).status).toBe(
      400,
    );
    expect((await t.client("POST", "/orders/find-batch", { orderIds: ["B-1"] })).status).toBe(400);
  });

  it("sends CORS headers on Client API routes but not on Admin API routes", async () => {
    const pre = await fetch(`${t.emu.baseUrl}/demo-store/orders/find-batch`, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const admin = await fetch(`${t.emu.baseUrl}/demo-store/products/batch`, { method: "OPTIONS" });
    expect(admin.headers.get("access-control-allow-origin")).toBeNull();
    const res = await call(`${t.emu.baseUrl}/demo-store/ratings?skus=shirt`);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
