import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionToken } from "../helpers/session-token";
import { sendFlowLifecycle } from "../../sandbox/simulated-store/flow-lifecycle";
import { seedOfflineSession } from "../helpers/offline-session";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import type { SimOrder } from "../../sandbox/simulated-store/orders";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";
import { REVIEW_COLLECTED } from "../../app/.server/backsync/review-collected";
import type { CustomerReviewsAnswer } from "../../app/.server/customers/customer-reviews-page";

// Issue 27, item 4, on real parts: the emulator over HTTP, the simulated store, real Redis, a
// database of the file's own, the app's routes behind a real HTTP server.
// - "Review collected": no read by submission date until Flow's lifecycle callback (signed, over
//   HTTP) says a workflow uses the trigger; then each review shoppers submit, whatever its status,
//   starts it once, and nothing from before the workflow was turned on.
// - The customer details block's backend: with an admin ID token, the reviews of the customer on
//   the page (status, rating, product, date), newest first, five a page; nobody else's.

const [ANA, BEN] = STOREFRONT_CUSTOMERS as [
  (typeof STOREFRONT_CUSTOMERS)[number],
  (typeof STOREFRONT_CUSTOMERS)[number],
];
const ADMIN_EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";
const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
let st: StorefrontStack;
let anas: SimOrder;
let bens: SimOrder;
const submitted: string[] = [];
let turnedOn: Date;

beforeAll(async () => {
  st = await startStorefrontStack("customer-reviews-block");
  anas = await st.placeOrder(ANA, [0, 1, 2, 3, 4, 5], { delivered: true });
  bens = await st.placeOrder(BEN, [6], { delivered: true });
  // The admin's requests go through the library's `authenticate.admin`, which refreshes a token
  // close to its expiry with Shopify itself (unreachable here): the install gets an hour-long token,
  // as a real one has.
  await st.s.t.db.session.deleteMany({ where: { shop: STOREFRONT_SHOP } });
  await seedOfflineSession(st.s.t.db, st.store, { shop: STOREFRONT_SHOP, lifetimeMs: 3_600_000 });
}, 240_000);
afterAll(() => st?.close());

const skuOf = (o: SimOrder, line: number) => o.lines[line]!.productId!.replace(/^gid:\/\/shopify\/Product\//, "");

/** A review of one of the order's products, the way the service's rating page sends it. */
async function review(order: SimOrder, line: number, rating: number, text: string): Promise<string> {
  const token = st.s.emu.control.state("acme").orders.find((o) => o.orderId === String(order.id))!.verificationTokenId;
  const service = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  st.s.emu.control.advanceClock(1000);
  const { _id } = await service.storefront.submitReview(skuOf(order, line), {
    verificationTokenId: token,
    orderId: String(order.id),
    rating,
    text,
  });
  return _id;
}

const readsBySubmission = (since: number) =>
  st.s.emu.control
    .requests(since)
    .filter((r) => r.path.endsWith("/reviews/all") && r.query.order === "created,-1" && !r.query.sku);

/** Flow turning the merchant's workflow on or off, as the simulated store's Flow posts it. */
const lifecycle = (enabled: boolean, at: Date, secret = st.s.config.SHOPIFY_API_SECRET) =>
  sendFlowLifecycle({
    url: `${st.app.origin}/flow/lifecycle`,
    apiSecret: secret,
    shop: STOREFRONT_SHOP,
    trigger: REVIEW_COLLECTED,
    enabled,
    at,
  });

const collectedSent = () =>
  st.store.flowTriggers
    .filter((c) => c.handle === REVIEW_COLLECTED)
    .map((c) => ({ ...c, payload: c.payload as Record<string, unknown> }));

async function block(customer: string, page?: number, opts: { token?: string | null; method?: string } = {}) {
  const token =
    opts.token === undefined
      ? sessionToken(STOREFRONT_SHOP, { secret: st.s.config.SHOPIFY_API_SECRET, apiKey: st.s.config.SHOPIFY_API_KEY })
      : opts.token;
  const query = `customer=${encodeURIComponent(customer)}${page ? `&page=${page}` : ""}`;
  const res = await fetch(`${st.app.origin}/extensions/customer-reviews?${query}`, {
    method: opts.method ?? "GET",
    redirect: "manual",
    headers: {
      Origin: ADMIN_EXTENSION_ORIGIN,
      "User-Agent": BROWSER_UA,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(opts.method === "OPTIONS"
        ? { "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" }
        : {}),
    },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith("{") ? JSON.parse(text) : null };
}

describe("Flow trigger: review collected", () => {
  it("GIVEN no workflow uses the trigger THEN the back-sync never reads by submission date and sends nothing", async () => {
    submitted.push(await review(anas, 0, 5, "Before any workflow: must not start one"));
    const since = st.s.emu.control.lastRequestSeq();
    const run = await st.backSync();
    expect(run.collected).toBeNull();
    expect(readsBySubmission(since)).toEqual([]);
    expect(collectedSent()).toEqual([]);
  });

  it("GIVEN a signed lifecycle callback turning a workflow on THEN each review submitted since starts it once, any status", async () => {
    // Just after the review above, by the service's clock (the emulator's runs ahead of this one).
    const before = st.s.emu.control.state("acme").reviews.find((r) => r._id === submitted[0])!;
    turnedOn = new Date(Date.parse(before.created) + 1);
    expect((await lifecycle(true, turnedOn)).status).toBe(200);
    const fresh = [
      await review(anas, 1, 2, "Seams came apart after one wash"),
      await review(anas, 2, 4, "Comfortable, runs a little large"),
    ];
    submitted.push(...fresh);
    const since = st.s.emu.control.lastRequestSeq();
    const run = await st.backSync();
    expect(readsBySubmission(since)).toHaveLength(1);
    expect(run.collected).toMatchObject({ reviews: 2, truncated: false });
    expect(
      collectedSent()
        .map((c) => c.payload["Review id"])
        .sort(),
    ).toEqual([...fresh].sort());
    expect(collectedSent()[0]!.payload).toMatchObject({ "Review status": "pending", Rating: 2 });

    // The next poll: the same reviews at the cursor are claimed already.
    await st.backSync();
    expect(collectedSent()).toHaveLength(2);
  });

  it("GIVEN an unsigned callback THEN 401; the workflow turned off THEN the read stops", async () => {
    const off = new Date(turnedOn.getTime() + 60_000);
    expect((await lifecycle(false, off, "not-the-app-secret")).status).toBe(401);
    expect((await lifecycle(false, off)).status).toBe(200);
    submitted.push(await review(anas, 3, 3, "While off"));
    const since = st.s.emu.control.lastRequestSeq();
    expect((await st.backSync()).collected).toBeNull();
    expect(readsBySubmission(since)).toEqual([]);
    expect(collectedSent()).toHaveLength(2);
  });
});

describe("the customer details block's backend", () => {
  beforeAll(async () => {
    // Ana's other products, and Ben's one; moderation brings them all into the moderation feed too.
    submitted.push(await review(anas, 4, 1, "Broke on day two"), await review(anas, 5, 5, "Perfect gift"));
    await review(bens, 0, 4, "Ben's review");
    for (const id of st.s.emu.control
      .state("acme")
      .reviews.filter((r) => r.status === "pending")
      .map((r) => r._id))
      st.s.emu.control.publishReview(id);
    await st.backSync();
  });

  it("GIVEN the admin's ID token and Ana's page THEN her five newest reviews with status, rating, product and date", async () => {
    const res = await block(`gid://shopify/Customer/${ANA.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = res.body as CustomerReviewsAnswer;
    expect(body).toMatchObject({ page: 1, hasNext: true, unavailable: 0 });
    expect(body.reviews.map((r) => r.id)).toEqual([...submitted].reverse().slice(0, 5));
    const newest = body.reviews[0]!;
    expect(newest).toMatchObject({
      status: "published",
      rating: 5,
      product: { id: skuOf(anas, 5), title: st.store.product(skuOf(anas, 5))!.title },
    });
    expect(Date.parse(newest.submittedAt)).not.toBeNaN();
  });

  it("GIVEN the second page THEN her oldest review, and no page after it", async () => {
    const res = await block(`gid://shopify/Customer/${ANA.id}`, 2);
    expect(res.body).toMatchObject({ page: 2, hasNext: false, reviews: [{ id: submitted[0] }] });
  });

  it("GIVEN Ben's page THEN only his review", async () => {
    const res = await block(`gid://shopify/Customer/${BEN.id}`);
    expect(res.status).toBe(200);
    expect((res.body as CustomerReviewsAnswer).reviews).toMatchObject([{ rating: 4, product: { id: skuOf(bens, 0) } }]);
  });

  it("GIVEN no token, an expired one, another secret's, or no customer THEN refused", async () => {
    const customer = `gid://shopify/Customer/${ANA.id}`;
    // Without a token the library sends the browser to the app's login: no data either way.
    expect(await block(customer, 1, { token: null })).toMatchObject({ status: 302, body: null });
    const expired = sessionToken(STOREFRONT_SHOP, {
      secret: st.s.config.SHOPIFY_API_SECRET,
      apiKey: st.s.config.SHOPIFY_API_KEY,
      lifetimeSeconds: -60,
    });
    expect((await block(customer, 1, { token: expired })).status).toBe(401);
    const forged = sessionToken(STOREFRONT_SHOP, { secret: "not-the-app-secret", apiKey: st.s.config.SHOPIFY_API_KEY });
    expect((await block(customer, 1, { token: forged })).status).toBe(401);
    expect((await block("not-a-customer")).status).toBe(400);
  });

  it("GIVEN the browser's preflight THEN the extension may send its token", async () => {
    const res = await block(`gid://shopify/Customer/${ANA.id}`, 1, { token: null, method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/i);
  });
});
