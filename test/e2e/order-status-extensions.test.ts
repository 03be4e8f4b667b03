import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extensionSessionToken } from "../helpers/session-token";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";
import type { SimOrder } from "../../sandbox/simulated-store/orders";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";

// The backend of the customer account order status block and the thank-you block, over HTTP with
// session tokens signed the way Shopify signs them (the app's secret, `dest` the shop, `sub` the
// logged-in customer): each customer gets only their own orders' status, a guest at the thank-you
// page only the schedule, and every bad token a 401 the library gives.

const [ANA, BEN] = STOREFRONT_CUSTOMERS as [
  (typeof STOREFRONT_CUSTOMERS)[number],
  (typeof STOREFRONT_CUSTOMERS)[number],
];
const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";
// The extensions run in the buyer's browser (the library answers 410 to what looks like a bot).
const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
let st: StorefrontStack;
let delivered: SimOrder;
let paid: SimOrder;
let bens: SimOrder;

beforeAll(async () => {
  st = await startStorefrontStack("order-status-extensions");
  delivered = await st.placeOrder(ANA, [1, 2], { delivered: true });
  paid = await st.placeOrder(ANA, [3]);
  bens = await st.placeOrder(BEN, [4], { delivered: true });
}, 180_000);
afterAll(() => st?.close());

async function ask(path: string, order: string, token?: string, init: RequestInit = {}) {
  const headers: Record<string, string> = {
    Origin: EXTENSION_ORIGIN,
    "User-Agent": BROWSER_UA,
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
  const res = await fetch(`${st.app.origin}${path}?order=${encodeURIComponent(order)}`, {
    ...init,
    headers: { ...headers, ...(init.headers as Record<string, string>) },
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}
const tokenFor = (customerId?: string, extra: Parameters<typeof extensionSessionToken>[1] = {}) =>
  extensionSessionToken(STOREFRONT_SHOP, {
    customerId,
    secret: st.s.config.SHOPIFY_API_SECRET,
    apiKey: st.s.config.SHOPIFY_API_KEY,
    ...extra,
  });
const gid = (o: SimOrder) => `gid://shopify/Order/${o.id}`;
const skuOf = (o: SimOrder, line = 0) => o.lines[line]!.productId!.replace(/^gid:\/\/shopify\/Product\//, "");

describe("the customer account order status block's backend", () => {
  it("GIVEN the customer's own order THEN its products with a way to rate each, CORS open to the extension", async () => {
    const res = await ask("/extensions/order-status", gid(delivered), tokenFor(ANA.id));
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const token = st.s.emu.control
      .state("acme")
      .orders.find((o) => o.orderId === String(delivered.id))!.verificationTokenId;
    expect(res.body).toMatchObject({
      order: {
        id: String(delivered.id),
        name: `#${delivered.number}`,
        toRate: 2,
        fulfilled: true,
        items: [
          {
            sku: skuOf(delivered, 0),
            state: "rate",
            rate: {
              order: String(delivered.id),
              token,
              sku: skuOf(delivered, 0),
              href: `${st.s.emu.rateUrl}/rate/acme/${token}/${delivered.id}?sku=${skuOf(delivered, 0)}&source=store`,
            },
          },
          { sku: skuOf(delivered, 1), state: "rate" },
        ],
      },
    });
  });

  it("GIVEN another customer's order THEN nothing, and the service is not asked", async () => {
    const since = st.s.emu.control.lastRequestSeq();
    const res = await ask("/extensions/order-status", gid(bens), tokenFor(ANA.id));
    expect(res).toMatchObject({ status: 200, body: { order: null } });
    expect(st.s.emu.control.requests(since)).toEqual([]);
  });

  it("GIVEN a token without a customer, expired, signed with another secret, for another app, or none THEN refused", async () => {
    expect((await ask("/extensions/order-status", gid(delivered), tokenFor(undefined))).status).toBe(403);
    expect(
      (await ask("/extensions/order-status", gid(delivered), tokenFor(ANA.id, { lifetimeSeconds: -60 }))).status,
    ).toBe(401);
    expect(
      (await ask("/extensions/order-status", gid(delivered), tokenFor(ANA.id, { secret: "not-the-app-secret" })))
        .status,
    ).toBe(401);
    expect(
      (await ask("/extensions/order-status", gid(delivered), tokenFor(ANA.id, { apiKey: "another-app" }))).status,
    ).toBe(401);
    expect((await ask("/extensions/order-status", gid(delivered))).status).toBe(401);
    expect((await ask("/extensions/order-status", "not-an-order", tokenFor(ANA.id))).status).toBe(400);
  });

  it("GIVEN the browser's preflight THEN the extension may send its token", async () => {
    const res = await ask("/extensions/order-status", gid(delivered), undefined, {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/i);
  });
});

describe("the thank-you block's backend", () => {
  it("GIVEN the logged-in buyer's fulfilled order THEN rate now; their unfulfilled order THEN later", async () => {
    const now = await ask("/extensions/thank-you", `gid://shopify/OrderIdentity/${delivered.id}`, tokenFor(ANA.id));
    expect(now).toMatchObject({ status: 200, body: { state: "rate", order: { id: String(delivered.id), toRate: 2 } } });
    const later = await ask("/extensions/thank-you", `gid://shopify/OrderIdentity/${paid.id}`, tokenFor(ANA.id));
    expect(later).toMatchObject({ status: 200, body: { state: "later" } });
  });

  it("GIVEN a guest, or someone else's order THEN only the schedule, never a rating token", async () => {
    const since = st.s.emu.control.lastRequestSeq();
    const guest = await ask(
      "/extensions/thank-you",
      `gid://shopify/OrderIdentity/${delivered.id}`,
      tokenFor(undefined),
    );
    expect(guest.body).toEqual({ state: "later" });
    expect(st.s.emu.control.requests(since)).toEqual([]);
    const other = await ask("/extensions/thank-you", `gid://shopify/OrderIdentity/${bens.id}`, tokenFor(ANA.id));
    expect(other.body).toEqual({ state: "later" });
  });
});
