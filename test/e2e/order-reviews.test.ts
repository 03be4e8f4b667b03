import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signProxyQuery } from "../../app/.server/storefront/proxy/app-proxy-signature";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import type { SimOrder } from "../../sandbox/simulated-store/orders";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";

// "Rate your order" through the app proxy on real parts: the simulated store holds the orders of
// the storefront's accounts (placed, paid, delivered as Shopify's webhooks to the app, so the
// service holds them through the real order sync), the local storefront signs who is logged in,
// the app answers each customer's own orders with the service's review status.

const [ANA, BEN, CARMEN] = STOREFRONT_CUSTOMERS as [
  (typeof STOREFRONT_CUSTOMERS)[number],
  (typeof STOREFRONT_CUSTOMERS)[number],
  (typeof STOREFRONT_CUSTOMERS)[number],
];
let st: StorefrontStack;
const anaOrders: SimOrder[] = [];
let benOrder: SimOrder;
let delivered: SimOrder;

beforeAll(async () => {
  st = await startStorefrontStack("order-reviews", {
    PROXY_IP_LIMIT_PER_MIN: "1000",
    PROXY_SHOP_LIMIT_PER_MIN: "1000",
  });
  // 22 orders: more than one page of 20. The newest is delivered, with two products.
  const start = Date.now() - 30 * 86_400_000;
  for (let i = 0; i < 21; i++)
    anaOrders.push(await st.placeOrder(ANA, [i % 10], { at: new Date(start + i * 86_400_000) }));
  delivered = await st.placeOrder(ANA, [1, 2], { delivered: true });
  anaOrders.push(delivered);
  benOrder = await st.placeOrder(BEN, [3], { delivered: true });
}, 240_000);
afterAll(() => st?.close());

async function orders(query: string, customer?: string) {
  const res = await fetch(`${st.storefront.origin}/apps/reviews/orders${query}`, {
    headers: customer ? { Cookie: `local_storefront_customer=${customer}` } : {},
  });
  return { status: res.status, cache: res.headers.get("cache-control"), html: await res.text() };
}
const orderIds = (html: string) => [...html.matchAll(/id="rv-order-(\d+)"/g)].map((m) => m[1]);
const batchCalls = (since: number) =>
  st.s.emu.control.requests(since).filter((e) => e.path.endsWith("/orders/find-batch"));
const serviceOrder = (id: number) => st.s.emu.control.state("acme").orders.find((o) => o.orderId === String(id))!;

describe("order review status through the app proxy", () => {
  it("GIVEN a customer with 22 orders THEN the history comes 20 at a time, newest first, each page one find-batch call for that customer", async () => {
    const since = st.s.emu.control.lastRequestSeq();
    const first = await orders("?locale=en", ANA.id);
    expect(first.status).toBe(200);
    expect(first.cache).toBe("private, no-store");
    const newestFirst = [...anaOrders].reverse().map((o) => String(o.id));
    expect(orderIds(first.html)).toEqual(newestFirst.slice(0, 20));
    const next = /data-next="([^"]+)"/.exec(first.html)![1]!;
    const second = await orders(`?after=${encodeURIComponent(next)}`, ANA.id);
    expect(orderIds(second.html)).toEqual(newestFirst.slice(20));
    expect(second.html).not.toContain("data-next=");
    const calls = batchCalls(since);
    expect(calls).toHaveLength(2);
    // The delivered order's two products are to rate, each "Rate" with that order's token; the paid
    // orders' products wait for their parcels.
    expect(first.html).toContain("2 products are waiting for your review.");
    expect(first.html.match(/You can rate it once your order arrives\./g)).toHaveLength(19);
    expect(first.html.match(/data-rv-rate-token=/g)).toHaveLength(2);
    const token = serviceOrder(delivered.id).verificationTokenId;
    expect(first.html).toContain(`data-rv-rate-order="${delivered.id}" data-rv-rate-token="${token}"`);
    // The rating modal titles the order by its name, as this list does.
    expect(first.html).toContain(`data-rv-rate-name="#${delivered.number}"`);
    expect(first.html).toContain(`${st.s.emu.rateUrl}/rate/acme/${token}/${delivered.id}?sku=`);
  });

  it("GIVEN a product already rated THEN it shows the stars and the words given, escaped, and no Rate for it", async () => {
    const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
    const sku = delivered.lines[0]!.productId!.replace(/^gid:\/\/shopify\/Product\//, "");
    const { verificationTokenId } = serviceOrder(delivered.id);
    await client.storefront.submitReview(sku, {
      verificationTokenId,
      orderId: String(delivered.id),
      rating: 4,
      text: "Fits well <script>alert(1)</script>",
    });
    const page = await orders(`?order=${delivered.id}&locale=pt-BR`, ANA.id);
    expect(orderIds(page.html)).toEqual([String(delivered.id)]);
    expect(page.html).toContain("Você avaliou.");
    expect(page.html).toContain(`aria-label="4,0 de 5 estrelas"`);
    expect(page.html).toContain("Fits well &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page.html).not.toContain(`data-rv-rate-sku="${sku}"`);
    expect(page.html).toContain(
      `data-rv-rate-sku="${delivered.lines[1]!.productId!.replace(/^gid:\/\/shopify\/Product\//, "")}"`,
    );
    expect(page.html).toContain("1 produto aguarda a sua avaliação.");
  });

  it("GIVEN another customer's order id THEN nothing of it is shown, and the service is not asked; their history holds only their own orders", async () => {
    const since = st.s.emu.control.lastRequestSeq();
    const other = await orders(`?order=${benOrder.id}`, ANA.id);
    expect(other.status).toBe(200);
    expect(orderIds(other.html)).toEqual([]);
    expect(other.html).toContain("This order cannot be rated here.");
    expect(other.html).not.toContain(serviceOrder(benOrder.id).verificationTokenId);
    expect(st.s.emu.control.requests(since)).toEqual([]);
    const bens = await orders("", BEN.id);
    expect(orderIds(bens.html)).toEqual([String(benOrder.id)]);
    // The service is asked with Ben's identity only.
    expect(batchCalls(since).map((c) => c.body)).toEqual([
      { orderIds: [String(benOrder.id)], userId: BEN.id, email: BEN.email },
    ]);
  });

  it("GIVEN a shopper who is not logged in THEN the page asks them to log in and the service is not asked", async () => {
    const since = st.s.emu.control.lastRequestSeq();
    const page = await orders("?locale=es");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Inicia sesión para ver y valorar tus pedidos.");
    expect(st.s.emu.control.requests(since)).toEqual([]);
  });

  it("GIVEN a bad query or no Shopify signature THEN 400 with the reason, or 401", async () => {
    expect((await orders("?order=abc", ANA.id)).html).toMatch(/order must be an order id/);
    expect((await orders("?page=2", ANA.id)).status).toBe(400);
    const unsigned = await fetch(
      `${st.app.origin}/apps/reviews/orders?shop=${STOREFRONT_SHOP}&logged_in_customer_id=${ANA.id}`,
    );
    expect(unsigned.status).toBe(401);
    // A signature for Ben does not open Ana's orders.
    const forged = signProxyQuery(
      new URLSearchParams({ order: String(anaOrders[0]!.id) }),
      { shop: STOREFRONT_SHOP, loggedInCustomerId: BEN.id, pathPrefix: "/apps/reviews" },
      st.s.config.SHOPIFY_API_SECRET,
    );
    expect(orderIds(await (await fetch(`${st.app.origin}/apps/reviews/orders?${forged}`)).text())).toEqual([]);
  });

  it("GIVEN the service failing THEN a translated error the block can retry, never stored", async () => {
    st.s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "/orders/find-batch$" });
    try {
      const page = await orders("", ANA.id);
      expect(page.status).toBe(503);
      expect(page.cache).toBe("no-store");
      expect(page.html).toContain("data-rv-retry");
    } finally {
      st.s.emu.control.clearFaults();
    }
    expect(orderIds((await orders("", ANA.id)).html)).toHaveLength(20);
  });

  it("GIVEN a buyer who writes on the product page THEN the review is tied to their order (verified), a second one is refused, and neither that order nor a later one offers Rate for the product", async () => {
    const skuOf = (index: number) => st.productIds[index]!;
    const write = (index: number, body: unknown) =>
      fetch(`${st.storefront.origin}/apps/reviews/products/${skuOf(index)}/reviews`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: `local_storefront_customer=${BEN.id}` },
        body: JSON.stringify(body),
      });
    const reviewed = async (index: number) =>
      (await (
        await fetch(`${st.storefront.origin}/apps/reviews/products/${skuOf(index)}/reviewed`, {
          headers: { Cookie: `local_storefront_customer=${BEN.id}` },
        })
      ).json()) as { reviewed: boolean };
    const rateOffered = (html: string, index: number) => html.includes(`data-rv-rate-sku="${skuOf(index)}"`);

    expect(rateOffered((await orders("", BEN.id)).html, 3)).toBe(true);
    expect(await reviewed(3)).toEqual({ reviewed: false });
    const sent = await write(3, { rating: 5, text: "Bought it, love it." });
    expect(sent.status).toBe(201);
    const stored = st.s.emu.control.state("acme").reviews.find((r) => r.text === "Bought it, love it.")!;
    expect(stored).toMatchObject({ sku: skuOf(3), orderId: String(benOrder.id), verified: true });
    expect(await reviewed(3)).toEqual({ reviewed: true });
    expect(
      await write(3, { rating: 1, text: "Changed my mind." }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      })),
    ).toEqual({ status: 409, body: { error: "already_reviewed" } });
    // A guest is never told anything of a customer.
    expect(await (await fetch(`${st.storefront.origin}/apps/reviews/products/${skuOf(3)}/reviewed`)).json()).toEqual({
      reviewed: false,
    });

    // Bought again: the new order does not offer it either.
    const again = await st.placeOrder(BEN, [3], { delivered: true });
    const page = (await orders("", BEN.id)).html;
    expect(rateOffered(page, 3)).toBe(false);
    expect(page).toContain(`id="rv-order-${again.id}"`);
    expect(page).toContain("Bought it, love it.");

    // Reviewed on the product page before buying: once bought, not offered either.
    expect((await write(6, { rating: 4, text: "Tried it in the shop." })).status).toBe(201);
    expect(st.s.emu.control.state("acme").reviews.find((r) => r.text === "Tried it in the shop.")).toMatchObject({
      userId: BEN.id,
      verified: false,
    });
    await st.placeOrder(BEN, [6], { delivered: true });
    expect(rateOffered((await orders("", BEN.id)).html, 6)).toBe(false);
    expect((await orders("", BEN.id)).html).toContain("You have rated everything you bought.");
  });

  it("GIVEN an order of 10 products THEN the history shows its first 8 with Show all 10 products and counts all 10 to rate; its page holds all 10; the 10th written on the product page is a verified purchase of it", async () => {
    const big = await st.placeOrder(CARMEN, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], { delivered: true });
    const history = (await orders("", CARMEN.id)).html;
    expect(history.split('class="rv-or-item ').length - 1).toBe(8);
    expect(history).toContain("Show all 10 products");
    expect(history).toContain("10 products are waiting for your review.");
    const page = (await orders(`?order=${big.id}`, CARMEN.id)).html;
    expect(page.split('class="rv-or-item ').length - 1).toBe(10);
    expect(page).not.toContain("data-rv-all");

    const sku = st.productIds[9]!;
    const sent = await fetch(`${st.storefront.origin}/apps/reviews/products/${sku}/reviews`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: `local_storefront_customer=${CARMEN.id}` },
      body: JSON.stringify({ rating: 5, text: "The tenth thing I bought." }),
    });
    expect(sent.status).toBe(201);
    expect(st.s.emu.control.state("acme").reviews.find((r) => r.text === "The tenth thing I bought.")).toMatchObject({
      sku,
      orderId: String(big.id),
      verified: true,
    });
  });

  it("GIVEN a buyer whose purchases are remembered WHEN they buy another product THEN their review of it, at once, is tied to the new order; the next one reads no orders from Shopify", async () => {
    const skuOf = (index: number) => st.productIds[index]!;
    const write = (index: number, text: string) =>
      fetch(`${st.storefront.origin}/apps/reviews/products/${skuOf(index)}/reviews`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: `local_storefront_customer=${BEN.id}` },
        body: JSON.stringify({ rating: 5, text }),
      });
    const reviewOf = (text: string) => st.s.emu.control.state("acme").reviews.find((r) => r.text === text);
    const ordersRead = () => st.store.operationCount("CustomerOrders");

    // Not bought: it goes as the customer, and what Ben bought is now remembered.
    expect((await write(7, "Seen it in the shop window.")).status).toBe(201);
    expect(reviewOf("Seen it in the shop window.")).toMatchObject({ userId: BEN.id, verified: false });

    const bought = await st.placeOrder(BEN, [8], { delivered: true });
    const read = ordersRead();
    expect((await write(8, "Arrived today, fits well.")).status).toBe(201);
    expect(reviewOf("Arrived today, fits well.")).toMatchObject({ orderId: String(bought.id), verified: true });
    expect(ordersRead()).toBeGreaterThan(read);

    const remembered = ordersRead();
    expect((await write(9, "Not mine yet.")).status).toBe(201);
    expect(ordersRead()).toBe(remembered);
  });
});
