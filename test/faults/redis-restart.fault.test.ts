import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../helpers/stack";
import { eventually } from "../helpers/contexts";
import { fulfilledOrder, order, product, runnerProduct, RUNNER, type Json } from "./payloads";
import { startPersistentRedis, type PersistentRedis } from "./persistent-redis";
import { OrderBook, ordersModule, startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { seedOfflineSession } from "../helpers/offline-session";

// Redis dies (kill -9) while acknowledged webhooks wait in it, and comes back on the same data.
// Redis runs as production must (appendonly yes, appendfsync always), so what the ingress
// acknowledged was on disk before Shopify got its 200. The test never reconnects anything: the
// web process's producer and the workers' connections must heal by themselves. While Redis is away
// the ingress answers 503, so Shopify keeps the delivery and retries it.
//
// The shop is installed on a simulated store (no products, no orders of its own): an order request
// whose lock lapsed in the outage may have reached the service, and the fence then has the order
// read again from Shopify (an orders reconciliation, app/.server/orders/order-calls.ts).

const SHOP = "redis-restart.myshopify.com";
const [O1, O2, O3, O4, O5] = [5923018200001, 5923018200002, 5923018200003, 5923018200004, 5923018200005];
const [P1, P2] = [8800000000101, 8800000000102];
const t = (minute: number) => `2026-11-18T11:${String(minute).padStart(2, "0")}:00-05:00`;

let redis: PersistentRedis;
let store: SimulatedStore;
let s: Stack;
const acked: string[] = [];

async function deliver(topic: string, payload: Json, id: string) {
  const res = await s.deliver(topic, SHOP, payload, { webhookId: id });
  if (res.status === 200) acked.push(id);
  return res;
}

const stored = () => s.emu.control.state("acme");
const orderStatuses = () => Object.fromEntries(stored().orders.map((o) => [o.orderId, o.status]));
const connections = () => [
  s.web.queues.redis,
  s.worker.queues.redis,
  ...s.workers.workers.map((w) => w.opts.connection as { status: string }),
];

beforeAll(async () => {
  redis = await startPersistentRedis();
  store = await startSimulatedStore({
    shop: SHOP,
    products: 0,
    bulkDurationMs: 50,
    modules: [ordersModule(new OrderBook({ seed: 5, count: 0, productCount: 1 }))],
  });
  s = await startStack("fault-redis-restart", {
    SHOPIFY_ORIGIN: store.originTemplate,
    REDIS_URL: redis.url,
    JOB_BACKOFF_MS: "100",
    // A job that was running when Redis died is taken up again once its lock lapses.
    WORKER_LOCK_MS: "2000",
    CATALOG_FLUSH_WINDOW_MS: "100",
    CATALOG_FLUSH_MAX_WAIT_MS: "300",
  });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
  expect((await deliver("products/create", runnerProduct(), "runner-create")).status).toBe(200);
  const shopId = (await s.web.shops.get(SHOP)).id;
  await eventually(
    () => s.t.db.productMirror.findFirst({ where: { shopId, productId: String(RUNNER.product) } }),
    (m) => m?.status === "synced",
  );
});
afterAll(async () => {
  await s?.close();
  await redis?.close();
  await store?.close();
});

describe("Redis restarts under acknowledged work", () => {
  it("GIVEN deliveries acknowledged while the service is down WHEN Redis is killed and restarted THEN every one reaches the service", async () => {
    // The service refuses everything, so the work stays in Redis: waiting, delayed or running.
    s.emu.control.setFaults({ errorRate: 1, errorStatus: 503 });
    const before: [string, Json, string][] = [
      ["orders/create", order(O1, t(0), { financial_status: "pending" }), "o1-create"],
      ["orders/create", order(O2, t(0), { financial_status: "pending" }), "o2-create"],
      ["orders/create", order(O3, t(0)), "o3-create"],
      ["products/create", product(P1, "P1 v1"), "p1-create"],
      ["orders/updated", order(O1, t(5), { financial_status: "paid" }), "o1-paid"],
      ["orders/fulfilled", fulfilledOrder(O2, t(5), 5123456700102), "o2-fulfilled"],
      ["products/update", product(P1, "P1 v2"), "p1-update"],
      ["orders/create", order(O4, t(0)), "o4-create"],
    ];
    for (const [topic, payload, id] of before) expect((await deliver(topic, payload, id)).status, id).toBe(200);
    await eventually(
      async () =>
        new Set(
          s.emu.control
            .requests()
            .filter((r) => r.status === 503 && r.path === "/api/acme/orders")
            .map((r) => (r.body as { orderId: string }).orderId),
        ),
      (ids) => [O1, O2, O3, O4].every((id) => ids.has(String(id))),
    );

    await redis.kill();
    // Observed, not acted on: the producer has noticed that Redis is gone.
    await eventually(
      async () => s.web.queues.redis.status,
      (st) => st !== "ready",
    );

    // Not stored, so not acknowledged: Shopify will deliver these again.
    for (const [topic, payload, id] of [
      ["orders/create", order(O5, t(10)), "o5-create"],
      ["products/create", product(P2, "P2 v1"), "p2-create"],
    ] as const) {
      const res = await deliver(topic, payload, id);
      expect(res.status, id).toBe(503);
      expect(res.headers.get("retry-after"), id).toBeTruthy();
    }

    await redis.start();
    const restartedAt = Date.now();
    // Shopify's retry of the refused deliveries: accepted once the producer has reconnected.
    const retried = await eventually(
      () => s.deliver("orders/create", SHOP, order(O5, t(10)), { webhookId: "o5-create" }).then((r) => r.status),
      (st) => st === 200,
      20_000,
    );
    acked.push("o5-create");
    expect(retried).toBe(200);
    const acceptedAfterMs = Date.now() - restartedAt;
    expect((await deliver("products/create", product(P2, "P2 v1"), "p2-create")).status).toBe(200);

    s.emu.control.clearFaults();
    const done = await eventually(
      () => s.t.db.webhookDelivery.findMany({ where: { id: { in: acked } }, select: { id: true, status: true } }),
      (rows) => rows.length === new Set(acked).size && rows.every((r) => r.status === "done"),
      40_000,
    );
    expect(done).toHaveLength(11);
    console.info(
      `after the restart: ingress answered 200 again within ${acceptedAfterMs} ms; all ${done.length} acknowledged deliveries done within ${Date.now() - restartedAt} ms`,
    );
    await eventually(
      async () => orderStatuses(),
      (st) => [O1, O2, O3, O4, O5].every((id) => st[String(id)]),
      20_000,
    );
    await eventually(
      async () => stored().products.filter((p) => [P1, P2].map(String).includes(p.sku)).length,
      (n) => n === 2,
      20_000,
    );
    // Both products upstream is not yet the end of the work: a flush whose send lock lapsed in the
    // outage records nothing and has the newest form of its products sent again after its own request
    // (catalog/send-fence.ts). The next tests check the outcome, so this one waits until nothing is left.
    await s.idle(40_000);
  }, 120_000);

  it("THEN each acknowledged event has its effect upstream, once, in its newest form", async () => {
    expect(orderStatuses()).toMatchObject({ [O1]: "paid", [O2]: "shipped", [O3]: "paid", [O4]: "paid", [O5]: "paid" });
    const ids = stored().orders.map((o) => o.orderId);
    expect(ids.length).toBe(new Set(ids).size);
    const bySku = (id: number) => stored().products.find((p) => p.sku === String(id));
    expect(bySku(P1)).toMatchObject({ name: "P1 v2", status: "active" });
    expect(bySku(P2)).toMatchObject({ name: "P2 v1", status: "active" });
  });

  it("THEN the connections came back by themselves and the workers kept running", async () => {
    expect(connections().map((c) => c.status)).toEqual(connections().map(() => "ready"));
    expect(s.workers.workers.map((w) => w.isRunning())).toEqual(s.workers.workers.map(() => true));
  });
});
