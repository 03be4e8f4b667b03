import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pollScheduleKeys } from "../../app/.server/activity/poll-schedule";
import { createReviewedProducts } from "../../app/.server/storefront/shopper/reviewed-products";
import { signedProxyRequest } from "../helpers/app-proxy";
import { eventually } from "../helpers/contexts";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";

// A shopper's review through the app proxy on real parts: the local storefront forwards it as
// Shopify does (signed query, the logged-in customer added by the platform, cookies stripped), the
// app identifies the writer from Shopify (the simulated store) or a verified order, and the
// emulator receives it as the Client API says. The service failing keeps the review until a worker
// has it accepted, exactly once.

let st: StorefrontStack;
let sku: string;
const ANA = { id: "7001", email: "ana.souza@example.com" };

beforeAll(async () => {
  st = await startStorefrontStack("review-writes", {
    JOB_BACKOFF_MS: "50",
    REVIEWS_TIMEOUT_MS: "1000",
    PROXY_WRITE_IP_LIMIT_PER_HOUR: "1000",
    PROXY_WRITE_CUSTOMER_LIMIT_PER_HOUR: "1000",
  });
  sku = st.productIds[1];
  // A delivered order of that product, as the order sync would have sent it (ids by order name).
  await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { orders: { orderIdSource: "name" } });
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  await client.admin.createOrderV2({
    orderId: "#1001",
    email: "buyer.one@example.net",
    name: "Rita Buyer",
    status: "delivered",
    items: [{ productId: sku, sku }],
  });
}, 120_000);
afterAll(() => st?.close());

const reviews = () => st.s.emu.control.state("acme").reviews.filter((r) => r.sku === sku);
/** One review per product per buyer: the cases below each write as a buyer new to the product. */
const forgetAna = () => createReviewedProducts(st.s.web.queues.redis, st.s.prefix).forget(STOREFRONT_SHOP, ANA.id);
beforeEach(() => forgetAna());

async function post(body: unknown, opts: { customer?: string; path?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (opts.customer) headers.Cookie = `local_storefront_customer=${opts.customer}`;
  const res = await fetch(`${st.storefront.origin}/apps/reviews${opts.path ?? `/products/${sku}/reviews`}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

describe("writing a review through the app proxy", () => {
  it("GIVEN a logged-in customer THEN the review goes as that customer (id and e-mail from Shopify), from the web, and no update token reaches the browser", async () => {
    const before = reviews().length;
    const res = await post(
      {
        rating: 5,
        text: "Lovely fabric, true to size.",
        recommended: "yes",
        userId: "666",
        email: "forged@example.org",
      },
      { customer: ANA.id },
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.body).toMatchObject({
      status: "sent",
      review: { id: expect.any(String), attributes: expect.any(Array) },
    });
    expect(res.body).not.toHaveProperty("write");
    const stored = reviews();
    expect(stored).toHaveLength(before + 1);
    const r = stored.find((x) => x._id === (res.body!.review as { id: string }).id)!;
    expect(r).toMatchObject({
      userId: ANA.id,
      email: ANA.email,
      rating: 5,
      text: "Lovely fabric, true to size.",
      recommended: true,
      source: "web",
    });
    expect(res.text).not.toContain(r.updateToken);
    // A change at the service the app saw: the shop's back-sync polls at once, then at the active pace
    // for ten minutes (the review may be published soon), and the review counts in its rate.
    const shop = await st.s.web.shops.get(STOREFRONT_SHOP);
    const keys = pollScheduleKeys(st.s.prefix);
    const activeUntil = await st.s.web.queues.redis.zscore(keys.active, shop.id);
    expect(Number(activeUntil)).toBeGreaterThan(Date.now() + 500_000);
    expect(Number(await st.s.web.queues.redis.zscore(keys.due, shop.id))).toBeLessThanOrEqual(Date.now());
    expect(Number((await st.s.web.queues.redis.hget(keys.changes, shop.id))!.split(":")[0])).toBeGreaterThanOrEqual(1);
  });

  it("GIVEN the author THEN attributes, photos and a video are added through the proxy (a real PUT to the upload URL); another shopper gets 403", async () => {
    const res = await post({ rating: 4, text: "With extras." }, { customer: ANA.id });
    const review = res.body!.review as { id: string; attributes: { id: string; type: string; choices: string[] }[] };
    expect(review.attributes.length).toBeGreaterThan(0);
    const base = `/products/${sku}/reviews/${review.id}`;
    const answers = review.attributes.map((a) => ({ id: a.id, value: a.type === "stars" ? 4 : 0 }));
    const other = await post({ attributes: answers }, { customer: "7002", path: `${base}/attributes` });
    expect(other).toMatchObject({ status: 403, body: { error: "not_your_review" } });
    const guest = await post({ attributes: answers, write: "made-up-handle" }, { path: `${base}/attributes` });
    expect(guest.status).toBe(403);
    expect((await post({ attributes: answers }, { customer: ANA.id, path: `${base}/attributes` })).status).toBe(200);
    expect(
      st.s.emu.control
        .state("acme")
        .reviews.find((r) => r._id === review.id)!
        .attributes.map((a) => a._id)
        .sort(),
    ).toEqual(answers.map((a) => a.id).sort());

    // A photo: refused by type and size before the service is asked, then presigned, PUT, confirmed.
    expect(
      (await post({ kind: "photo", mimeType: "image/gif", fileSize: 10 }, { customer: ANA.id, path: `${base}/media` }))
        .body,
    ).toEqual({ error: "type" });
    expect(
      (
        await post(
          { kind: "photo", mimeType: "image/png", fileSize: 11 * 1024 * 1024 },
          { customer: ANA.id, path: `${base}/media` },
        )
      ).body,
    ).toEqual({ error: "size" });
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const presigned = await post(
      { kind: "photo", mimeType: "image/png", fileSize: png.length },
      { customer: ANA.id, path: `${base}/media` },
    );
    expect(presigned.status).toBe(200);
    const { uploadUrl, fileKey } = presigned.body as { uploadUrl: string; fileKey: string };
    expect(presigned.text).not.toMatch(/updateToken/);
    expect(
      (await fetch(uploadUrl, { method: "PUT", headers: { "Content-Type": "image/png" }, body: png })).status,
    ).toBeLessThan(300);
    expect(
      (await post({ kind: "photo", keys: [fileKey] }, { customer: "7002", path: `${base}/media/confirm` })).status,
    ).toBe(403);
    expect(
      (await post({ kind: "photo", keys: [fileKey] }, { customer: ANA.id, path: `${base}/media/confirm` })).status,
    ).toBe(200);
    expect(st.s.emu.control.state("acme").reviews.find((r) => r._id === review.id)!.pictures).toHaveLength(1);

    // A video the same way: refused by type before the service is asked, then presign, PUT, confirm.
    expect(
      (
        await post(
          { kind: "video", mimeType: "video/x-msvideo", fileSize: 1000 },
          { customer: ANA.id, path: `${base}/media` },
        )
      ).body,
    ).toEqual({ error: "type" });
    const mp4 = Buffer.from("00000018667479706d703432000000006d703432", "hex");
    const video = await post(
      { kind: "video", mimeType: "video/mp4", fileSize: mp4.length },
      { customer: ANA.id, path: `${base}/media` },
    );
    expect(video.status).toBe(200);
    const v = video.body as { uploadUrl: string; fileKey: string };
    expect(
      (await fetch(v.uploadUrl, { method: "PUT", headers: { "Content-Type": "video/mp4" }, body: mp4 })).status,
    ).toBeLessThan(300);
    expect(
      (await post({ kind: "video", keys: [v.fileKey] }, { customer: ANA.id, path: `${base}/media/confirm` })).status,
    ).toBe(200);
    expect(st.s.emu.control.state("acme").reviews.find((r) => r._id === review.id)!.video).toBeTruthy();
  });

  it("GIVEN helpful votes THEN each shopper counts once (a customer, a browser), counts come from the service, and the service never sees a guest's real identity", async () => {
    const published = reviews().find((r) => r.status === "published")!;
    const path = `/products/${sku}/reviews/${published._id}/vote`;
    const before = published.helpful;
    const first = await post({ vote: "helpful" }, { customer: ANA.id, path });
    expect(first).toMatchObject({ status: 200, body: { helpful: before + 1 } });
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    expect(await post({ vote: "unhelpful" }, { customer: ANA.id, path })).toMatchObject({
      status: 409,
      body: { error: "already_voted" },
    });
    const browser = "0b7c2f3e-5a1d-4c9e-8f00-1234567890ab";
    expect(await post({ vote: "helpful", voter: browser }, { path })).toMatchObject({
      status: 200,
      body: { helpful: before + 2 },
    });
    expect((await post({ vote: "helpful", voter: browser }, { path })).status).toBe(409);
    expect((await post({ vote: "helpful" }, { path })).status).toBe(422);
    const since = st.s.emu.control.lastRequestSeq();
    await post({ vote: "unhelpful", voter: "another-browser-id-0001" }, { path });
    const sent = st.s.emu.control.requests(since).find((e) => e.path.endsWith("/dislike"))!;
    expect(JSON.stringify(sent.body)).toMatch(/"email":"guest-[a-z0-9_-]+@voter\.invalid"/);
  });

  it("GIVEN a guest with an order number and its e-mail THEN the review is a verified purchase; a wrong e-mail finds no order", async () => {
    const wrong = await post({ rating: 4, text: "Good", orderNumber: "1001", email: "someone.else@example.net" });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ errors: { orderNumber: "order_not_found" } });

    const res = await post({
      rating: 4,
      text: "Arrived quickly.",
      orderNumber: "#1001",
      email: "Buyer.One@example.net",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "sent", write: expect.any(String) });
    const r = reviews().find((x) => x._id === (res.body!.review as { id: string }).id)!;
    expect(r).toMatchObject({ verified: true, orderId: "#1001", rating: 4, source: "web" });
  });

  it("GIVEN a review link (order and token, as e-mailed) THEN the review is a verified purchase of that order; a made-up token, another product or a second review are refused", async () => {
    const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
    await client.admin.createOrderV2({
      orderId: "#1002",
      email: "buyer.two@example.net",
      name: "Lia Buyer",
      status: "delivered",
      items: [{ productId: sku, sku }],
    });
    const { verificationTokenId } = await client.storefront.findOrder({
      orderId: "#1002",
      email: "buyer.two@example.net",
    });
    const link = { linkOrder: "#1002", linkToken: verificationTokenId };
    expect(
      await post({ rating: 5, text: "From the e-mail.", linkOrder: "#1002", linkToken: "made-up-token-123" }),
    ).toMatchObject({ status: 422, body: { errors: { link: "link_invalid" } } });
    expect(
      await post({ rating: 5, text: "From the e-mail.", ...link }, { path: `/products/${st.productIds[3]}/reviews` }),
    ).toMatchObject({ status: 422, body: { errors: { link: "link_invalid" } } });
    expect(await post({ rating: 5, text: "From the e-mail.", linkOrder: "<x>", linkToken: "y" })).toMatchObject({
      status: 422,
      body: { errors: { link: "link_invalid" } },
    });
    const res = await post({ rating: 5, text: "From the e-mail.", ...link });
    expect(res).toMatchObject({ status: 201, body: { status: "sent", write: expect.any(String) } });
    expect(reviews().find((x) => x._id === (res.body!.review as { id: string }).id)).toMatchObject({
      verified: true,
      orderId: "#1002",
      rating: 5,
      source: "web",
    });
    expect(await post({ rating: 4, text: "Again from the e-mail.", ...link })).toMatchObject({
      status: 409,
      body: { error: "already_reviewed", review: { rating: 5, text: "From the e-mail." } },
    });
  });

  it("GIVEN a guest without an order THEN refused unless the merchant allows guest reviews", async () => {
    const refused = await post({ rating: 3, text: "Hmm", email: "walk.in@example.net" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "login_required" });
    await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { storefront: { guestReviews: true } });
    try {
      const ok = await post({ rating: 3, text: "Fine.", email: "walk.in@example.net" });
      expect(ok.status).toBe(201);
      const r = reviews().find((x) => x._id === (ok.body!.review as { id: string }).id)!;
      expect(r).toMatchObject({ email: "walk.in@example.net", verified: false });
    } finally {
      await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { storefront: { guestReviews: false } });
    }
  });

  it("GIVEN markup, a bad rating or a filled honeypot THEN nothing reaches the service", async () => {
    const before = reviews().length;
    expect((await post({ rating: 5, text: "<img src=x onerror=alert(1)>" }, { customer: ANA.id })).body).toEqual({
      errors: { text: "markup" },
    });
    expect((await post({ rating: 9, text: "ok" }, { customer: ANA.id })).body).toEqual({
      errors: { rating: "rating" },
    });
    const trap = await post({ rating: 5, text: "Great", website: "http://spam.example" }, { customer: ANA.id });
    expect(trap).toMatchObject({ status: 202, body: { status: "received" } });
    expect(reviews()).toHaveLength(before);
  });

  it("GIVEN a forged, stale or replayed proxy request THEN it is refused", async () => {
    const body = JSON.stringify({ rating: 5, text: "x" });
    const send = (req: Request) =>
      fetch(`${st.app.origin}${new URL(req.url).pathname}${new URL(req.url).search}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
    const forged = signedProxyRequest({
      shop: STOREFRONT_SHOP,
      path: `/products/${sku}/reviews`,
      customerId: ANA.id,
      secret: "not-the-app-secret",
    });
    expect((await send(forged)).status).toBe(401);
    const stale = signedProxyRequest({
      shop: STOREFRONT_SHOP,
      path: `/products/${sku}/reviews`,
      customerId: ANA.id,
      secret: st.s.config.SHOPIFY_API_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect((await send(stale)).status).toBe(401);
    const fresh = signedProxyRequest({
      shop: STOREFRONT_SHOP,
      path: `/products/${sku}/reviews`,
      customerId: ANA.id,
      secret: st.s.config.SHOPIFY_API_SECRET,
    });
    expect((await send(fresh)).status).toBe(201);
    const again = await send(fresh);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "replayed" });
  });

  it("GIVEN a body over the limit or not JSON THEN 413 / 415", async () => {
    const big = await post({ rating: 5, text: "a".repeat(20_000) }, { customer: ANA.id });
    expect(big.status).toBe(413);
    const res = await fetch(`${st.storefront.origin}/apps/reviews/products/${sku}/reviews`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "rating=5",
    });
    expect(res.status).toBe(415);
  });

  it("GIVEN the service failing when shoppers press send THEN each is told it was received, and once the service is back every review is there exactly once", async () => {
    const before = reviews().length;
    st.s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "^/api/acme/[^/]+/review$" });
    const texts = ["First while down.", "Second while down.", "Third while down."];
    try {
      for (const text of texts) {
        await forgetAna();
        const res = await post({ rating: 4, text }, { customer: ANA.id });
        expect(res).toMatchObject({ status: 202, body: { status: "received" } });
      }
      expect(await st.s.web.db.pendingReview.count()).toBe(3);
      // Still down for a while: the worker keeps trying and keeps them.
      await eventually(
        async () => (await st.s.web.db.pendingReview.findMany()).every((p) => p.attempts >= 2),
        (ok) => ok,
        30_000,
      );
    } finally {
      st.s.emu.control.clearFaults();
    }
    await eventually(
      () => st.s.web.db.pendingReview.count(),
      (n) => n === 0,
      60_000,
    );
    await st.s.idle();
    const stored = reviews().slice(before);
    expect(stored.map((r) => r.text).sort()).toEqual([...texts].sort());
    for (const r of stored) expect(r).toMatchObject({ userId: ANA.id, email: ANA.email, source: "web" });
  });

  it("GIVEN a timeout after the service stored the review THEN the worker finds it and does not send it twice", async () => {
    const before = reviews().length;
    const since = st.s.emu.control.lastRequestSeq();
    // The service stores the review but its answer never arrives.
    st.s.emu.control.setFaults({ loseAnswerNext: 1, paths: "^/api/acme/[^/]+/review$" });
    try {
      const res = await post({ rating: 2, text: "Slow answer, stored anyway." }, { customer: ANA.id });
      expect(res).toMatchObject({ status: 202, body: { status: "received" } });
    } finally {
      st.s.emu.control.clearFaults();
    }
    await eventually(
      () => st.s.web.db.pendingReview.count(),
      (n) => n === 0,
      60_000,
    );
    await st.s.idle();
    expect(
      reviews()
        .slice(before)
        .map((r) => r.text),
    ).toEqual(["Slow answer, stored anyway."]);
    // Sent once (the shopper's try); the worker looked it up instead of sending it again.
    const log = st.s.emu.control.requests(since);
    expect(log.filter((e) => e.method === "POST" && e.path === `/api/acme/${sku}/review`)).toHaveLength(1);
    expect(log.some((e) => e.method === "GET" && e.path === "/api/acme/reviews/all")).toBe(true);
  });
});
