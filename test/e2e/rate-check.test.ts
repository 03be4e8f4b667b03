import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimOrder } from "../../sandbox/simulated-store/orders";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";

// The rating modal's pre-check opens with every rating link a shopper follows, so what it asks
// Shopify is spent from the shop's Admin budget (a Standard store restores 100 points a second):
// one query of a few points for the order's name and the one product the modal names, whatever
// the order's size, kept for the proxy's cache window per order and product. What the buyer
// reviewed is the service's, asked every time: it changes as they rate.

const [ANA] = STOREFRONT_CUSTOMERS as [(typeof STOREFRONT_CUSTOMERS)[number]];
let st: StorefrontStack;
let order: SimOrder;
let token = "";

const skuAt = (i: number) => order.lines[i]!.productId!.replace(/^gid:\/\/shopify\/Product\//, "");
const shopifyReads = () => st.store.requests.filter((r) => r.operationName?.startsWith("RateCheckOrder"));

async function check(sku: string, customer: string | null = null) {
  const q = new URLSearchParams({ order: String(order.id), token, sku, locale: "en" });
  const res = await fetch(`${st.storefront.origin}/apps/reviews/rate-check?${q}`, {
    headers: customer ? { Cookie: `local_storefront_customer=${customer}` } : {},
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    name: string;
    reviewed: boolean;
    account: boolean;
    products: { sku: string; title: string; reviewed: boolean }[];
  };
}

beforeAll(async () => {
  // The proxy's default cache window (PROXY_CACHE_MS, 30 s).
  st = await startStorefrontStack("rate-check", {}, 40);
  order = await st.placeOrder(
    ANA,
    Array.from({ length: 30 }, (_, i) => i),
    { delivered: true },
  );
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  ({ verificationTokenId: token } = await client.storefront.findOrder({ orderId: String(order.id), email: ANA.email }));
}, 180_000);
afterAll(() => st?.close());

describe("the rating modal's pre-check", () => {
  it("GIVEN an order of 30 products WHEN the modal opens for one THEN Shopify is asked one query of at most 10 points, naming the order and that product", async () => {
    const before = shopifyReads().length;
    const answer = await check(skuAt(7), ANA.id);
    expect(answer).toMatchObject({ name: `#${order.number}`, reviewed: false, account: true });
    expect(answer.products).toEqual([expect.objectContaining({ sku: skuAt(7), title: order.lines[7]!.title })]);
    const reads = shopifyReads().slice(before);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.requestedCost).toBeLessThanOrEqual(10);
  });

  it("GIVEN the modal opened again for that product, by a guest holding the link THEN Shopify is not asked again, and the account is the logged-in buyer's only", async () => {
    await check(skuAt(3));
    const before = shopifyReads().length;
    const again = await check(skuAt(3));
    expect(again).toMatchObject({ name: `#${order.number}`, account: false });
    expect(shopifyReads().length).toBe(before);
  });

  it("GIVEN the product reviewed after the modal was opened THEN the next opening says so (the service is asked every time)", async () => {
    await check(skuAt(5));
    const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
    await client.storefront.submitReview(skuAt(5), {
      verificationTokenId: token,
      orderId: String(order.id),
      rating: 5,
      text: "Reviewed between two openings.",
    });
    const before = shopifyReads().length;
    expect(await check(skuAt(5))).toMatchObject({ reviewed: true, products: [{ sku: skuAt(5), reviewed: true }] });
    expect(shopifyReads().length).toBe(before);
  });
});
