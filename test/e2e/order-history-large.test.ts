import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSync } from "../../app/.server/sync/start-sync";
import { placeAccountOrder } from "../../sandbox/simulated-store/order-story";
import type { SimOrder } from "../../sandbox/simulated-store/orders";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";
import { eventually } from "../helpers/contexts";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";

// "Rate your orders" for a customer Shopify's cost limit would have shut out: 120 delivered orders
// of 50 products each. One query for 20 orders with all their lines requests 5,083 points, and
// Shopify (and the simulated store) refuses anything over 1,000, so the page reads each order's
// first lines with the orders and the rest order by order. Every query stays within the limit; the
// customer sees every order, every product of each, and Rate for each product.

const [ANA] = STOREFRONT_CUSTOMERS as [(typeof STOREFRONT_CUSTOMERS)[number]];
const ORDERS = 120;
const LINES = 50;
let st: StorefrontStack;
const placed: SimOrder[] = [];

beforeAll(async () => {
  // A Shopify Plus bucket (1,000 points a second): the history of 1,000 lines a page costs about
  // 5,100 points, which a Standard store's 100 a second would spread over a minute.
  st = await startStorefrontStack(
    "order-history-large",
    { PROXY_IP_LIMIT_PER_MIN: "1000", PROXY_SHOP_LIMIT_PER_MIN: "1000" },
    60,
    { maximumAvailable: 20_000, restoreRate: 1_000 },
  );
  const start = Date.now() - 40 * 86_400_000;
  for (let i = 0; i < ORDERS; i++) {
    // 50 of the 60 products, a different window each order.
    const products = Array.from({ length: LINES }, (_, k) => (i + k) % 60);
    const [change] = placeAccountOrder(st.book, ANA, products, {
      delivered: true,
      at: new Date(start + i * 3_600_000),
    });
    placed.push(st.book.get(change!.order.id)!);
  }
  // The service learns of them as a shop's recent orders are imported when it connects.
  const shop = await st.s.web.shops.get(STOREFRONT_SHOP);
  const { run } = await startSync({ db: st.s.web.db, queues: st.s.web.queues }, shop.id, "orders");
  await eventually(
    async () => (await st.s.web.db.syncRun.findUnique({ where: { id: run.id } }))?.status,
    (status) => status === "completed",
    120_000,
  );
  await st.s.idle();
}, 300_000);
afterAll(() => st?.close());

async function historyPage(after: string | null) {
  const query = after ? `?after=${encodeURIComponent(after)}&locale=en` : "?locale=en";
  const res = await fetch(`${st.storefront.origin}/apps/reviews/orders${query}`, {
    headers: { Cookie: `local_storefront_customer=${ANA.id}` },
  });
  return { status: res.status, html: await res.text() };
}

/** Each order's section of the page: its id and the items it lists. */
function ordersOf(html: string): { id: string; items: number }[] {
  return html
    .split('<li class="rv-or-order"')
    .slice(1)
    .map((section) => ({
      id: /id="rv-order-(\d+)"/.exec(section)![1]!,
      items: section.split('class="rv-or-item ').length - 1,
    }));
}

describe("the order history of a customer with 120 orders of 50 products", () => {
  it("GIVEN 120 delivered orders of 50 lines THEN every page answers 200 with every order and every product, and no query passed 1,000 points", async () => {
    const before = st.store.requests.length;
    const seen: { id: string; items: number }[] = [];
    const rateSkus = new Set<string>();
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await historyPage(after);
      expect(page.status).toBe(200);
      seen.push(...ordersOf(page.html));
      for (const m of page.html.matchAll(/data-rv-rate-sku="(\d+)"/g)) rateSkus.add(m[1]!);
      after = /data-next="([^"]+)"/.exec(page.html)?.[1]?.replace(/&amp;/g, "&") ?? null;
      pages++;
    } while (after && pages < 10);

    // Newest first, 20 a page, each order with all its 50 products.
    expect(pages).toBe(ORDERS / 20);
    expect(seen.map((o) => o.id)).toEqual([...placed].reverse().map((o) => String(o.id)));
    expect(seen.every((o) => o.items === LINES)).toBe(true);
    // Rate is offered for every product bought (once per product, whichever order shows it).
    const bought = new Set(
      placed.flatMap((o) => o.lines.map((l) => l.productId!.replace(/^gid:\/\/shopify\/Product\//, ""))),
    );
    expect(rateSkus).toEqual(bought);

    // What Shopify saw: the history's queries, each within the limit and none refused.
    const calls = st.store.requests.slice(before);
    expect(Math.max(...calls.map((r) => r.requestedCost ?? Infinity))).toBeLessThanOrEqual(1_000);
    const lineQueries = calls.filter((r) => r.operationName === "CustomerOrderLines" && !r.throttled);
    expect(calls.filter((r) => r.operationName === "CustomerOrders" && !r.throttled)).toHaveLength(pages);
    // 8 lines come with each order; the other 42 take one more query per order.
    expect(lineQueries).toHaveLength(ORDERS);
  }, 300_000);
});
