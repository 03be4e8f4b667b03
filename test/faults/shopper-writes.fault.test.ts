import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/contexts";
import { createReviewedProducts } from "../../app/.server/storefront/shopper/reviewed-products";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";

// Shoppers keep pressing send while the reviews service fails in each way it can — 503s, 429 with
// Retry-After, answers slower than the client waits, answers lost after the work was done — and
// then recovers. Every review and question a shopper was told "received" or "sent" must be at the
// service once: none lost, none twice. Through real HTTP (local storefront → app proxy → emulator),
// with the real worker retrying.

const CLIENT_TIMEOUT_MS = 1000;
let st: StorefrontStack;
let sku: string;
const CUSTOMERS = ["7001", "7002", "7003"];
const ORDERS = [3003, 3004, 3005, 3006];
const told: { kind: "review" | "question"; text: string; status: number }[] = [];

beforeAll(async () => {
  st = await startStorefrontStack("fault-shopper-writes", {
    JOB_BACKOFF_MS: "100",
    REVIEWS_TIMEOUT_MS: String(CLIENT_TIMEOUT_MS),
    PROXY_WRITE_IP_LIMIT_PER_HOUR: "1000",
    PROXY_WRITE_CUSTOMER_LIMIT_PER_HOUR: "1000",
  });
  sku = st.productIds[2];
  await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { orders: { orderIdSource: "name" } });
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  // One delivered order per phase: the service takes one review per order and product.
  for (const n of ORDERS)
    await client.admin.createOrderV2({
      orderId: `#${n}`,
      email: `guest.${n}@example.net`,
      name: "Gus Guest",
      status: "delivered",
      items: [{ productId: sku, sku }],
    });
}, 120_000);
afterAll(() => st?.close());

async function send(kind: "review" | "question", text: string, who: { customer?: string; order?: number }) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (who.customer) headers.Cookie = `local_storefront_customer=${who.customer}`;
  const identity = who.order ? { orderNumber: String(who.order), email: `guest.${who.order}@example.net` } : {};
  const body = kind === "review" ? { rating: 4, text, ...identity } : { text, ...identity };
  const res = await fetch(
    `${st.storefront.origin}/apps/reviews/products/${sku}/${kind === "review" ? "reviews" : "questions"}`,
    { method: "POST", headers, body: JSON.stringify(body) },
  );
  told.push({ kind, text, status: res.status });
  return res.status;
}

/** Five shoppers at once: three customers and a guest with an order, reviews and questions. */
async function burst(label: string, order: number) {
  // One review per product per buyer: each burst's customers come to the product as new buyers.
  const memory = createReviewedProducts(st.s.web.queues.redis, st.s.prefix);
  await Promise.all(CUSTOMERS.map((c) => memory.forget(STOREFRONT_SHOP, c)));
  return Promise.all([
    ...CUSTOMERS.map((c, i) => send("review", `${label}: review ${i + 1} from a customer.`, { customer: c })),
    send("review", `${label}: review from a guest with an order.`, { order }),
    send("question", `${label}: does it come in blue?`, { customer: CUSTOMERS[0] }),
  ]);
}

const writes = "^/api/acme/[^/]+/(review|question)$";

describe("shoppers writing while the service fails", () => {
  it("GIVEN 503s, 429s, slow answers and lost answers THEN every shopper is told it was received, and once the service is back each review and question is there exactly once", async () => {
    const faults = st.s.emu.control;
    const phases: [string, Parameters<typeof faults.setFaults>[0]][] = [
      ["503", { errorRate: 1, errorStatus: 503, paths: writes }],
      ["429", { rateLimit: { every: 1, retryAfterSeconds: 1 }, paths: writes }],
      ["slow", { latencyMs: CLIENT_TIMEOUT_MS + 200, paths: writes }],
      // Every write call of the phase, the worker's retries of earlier phases included.
      ["lost", { loseAnswerNext: 1000, paths: writes }],
    ];
    const writeCall = new RegExp(writes);
    for (const [i, [label, fault]] of phases.entries()) {
      const since = faults.lastRequestSeq();
      faults.setFaults(fault);
      try {
        const statuses = await burst(label, ORDERS[i]);
        // The service took none of them in time: each shopper hears "received".
        expect(statuses, label).toEqual([202, 202, 202, 202, 202]);
        // The next phase starts once the service has finished every write call of this one (a slow
        // call goes on after the app stopped waiting; it must not meet the next phase's fault).
        await eventually(
          async () =>
            faults.requests(since).filter((e) => e.method === "POST" && writeCall.test(e.path) && e.status === null)
              .length,
          (n) => n === 0,
          10_000,
        );
      } finally {
        faults.clearFaults();
      }
    }
    expect(await st.s.web.db.pendingReview.count()).toBeGreaterThan(0);
    // The service is back: the worker empties what it kept.
    await eventually(
      () => st.s.web.db.pendingReview.count(),
      (n) => n === 0,
      90_000,
    );
    await st.s.idle();

    const state = faults.state("acme");
    const reviews = state.reviews.filter((r) => r.sku === sku).map((r) => r.text);
    const questions = state.questions.filter((q) => q.sku === sku).map((q) => q.text);
    for (const t of told) {
      const held = (t.kind === "review" ? reviews : questions).filter((x) => x === t.text);
      expect(held, `${t.kind} "${t.text}"`).toHaveLength(1);
    }
    expect(told).toHaveLength(20);
    // The guest's reviews went as a verified purchase; the customers' as themselves.
    for (const r of state.reviews.filter((x) => x.sku === sku && x.text?.includes("from a guest")))
      expect(r).toMatchObject({ verified: true, orderId: expect.stringMatching(/^#300[3-6]$/) });
    for (const r of state.reviews.filter((x) => x.sku === sku && x.text?.includes("review 1 from a customer")))
      expect(r).toMatchObject({ userId: "7001", email: "ana.souza@example.com" });
  });
});
