import pino from "pino";
import { Queue } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { endpointLabel, metrics } from "./metrics";
import { queueSource } from "./queue-source";
import { createQueues } from "../queues/queues";
import { QueueName } from "../queues/names";
import { createAdminGraphql } from "../shopify/admin-graphql";
import { ThrottleRegistry } from "../shopify/throttle";
import { PRODUCT_BY_ID } from "../shopify/product-documents";
import { createSyncRuns } from "../sync/sync-runs.repository";
import { startSimulatedStore } from "../../../sandbox/simulated-store";
import { createTestDb } from "../../../test/helpers/db";
import { deletePrefix, redisCluster, redisUrl, uniquePrefix } from "../../../test/helpers/redis";

// The hooks that are hard to reach from a whole process in a test (Shopify throttling, sync run
// outcomes, queue depth of a queue nobody works), on real parts, read from the process registry.

const value = async (name: string, labels: Record<string, string> = {}) => {
  const metric = await metrics().registry.getSingleMetric(name)!.get();
  return metric.values
    .filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
    .reduce((a, v) => a + v.value, 0);
};

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe("metrics hooks", () => {
  it("GIVEN Shopify answers THROTTLED THEN reviews_shopify_throttled_total and the seconds waited move", async () => {
    const store = await startSimulatedStore({ products: 2, throttle: { maximumAvailable: 300, restoreRate: 100 } });
    cleanups.push(() => store.close());
    const gql = createAdminGraphql({
      shop: store.shop,
      accessToken: store.accessToken,
      apiVersion: store.apiVersion,
      endpoint: store.graphqlEndpoint,
      logger: pino({ level: "silent" }),
      throttle: new ThrottleRegistry(),
    });
    const before = await value("reviews_shopify_throttled_total");
    const [a] = store.products();
    // An empty bucket: the first call is THROTTLED, waits for the refill and goes again.
    store.setAvailablePoints(0);
    await gql.request(PRODUCT_BY_ID, { id: a!.id, withMetafields: false, metafieldKeys: [] });
    expect(store.requests.some((r) => r.throttled)).toBe(true);
    expect(await value("reviews_shopify_throttled_total")).toBeGreaterThan(before);
    expect(await value("reviews_shopify_throttle_wait_seconds_total")).toBeGreaterThan(0);
  });

  it("GIVEN a sync run started and finished THEN reviews_sync_runs_total counts it by kind and outcome", async () => {
    const t = await createTestDb("sqlite");
    cleanups.push(() => t.drop());
    const shop = await t.db.shop.create({ data: { domain: "metrics-sync.myshopify.com" } });
    const runs = createSyncRuns(t.db);
    const started = await value("reviews_sync_runs_total", { kind: "orders", outcome: "started" });
    const failed = await value("reviews_sync_runs_total", { kind: "orders", outcome: "failed" });
    const run = await runs.create(shop.id, "orders");
    await runs.update(run.id, { status: "running" });
    await runs.update(run.id, { status: "failed", error: "bulk operation failed" });
    expect(await value("reviews_sync_runs_total", { kind: "orders", outcome: "started" })).toBe(started + 1);
    expect(await value("reviews_sync_runs_total", { kind: "orders", outcome: "failed" })).toBe(failed + 1);
  });

  it("GIVEN jobs waiting in a queue nobody works THEN depth and the oldest job's age are read at scrape time", async () => {
    const prefix = uniquePrefix("metrics-queues");
    const queues = createQueues({ redisUrl: redisUrl(), cluster: redisCluster(), prefix, role: "worker" });
    cleanups.push(
      () => deletePrefix(prefix),
      () => queues.close(),
    );
    const maintenance: Queue = queues.get(QueueName.maintenance);
    const first = await maintenance.add("first", {}, { timestamp: Date.now() - 90_000 });
    await maintenance.add("second", {});
    await maintenance.add("later", {}, { delay: 3_600_000 });
    metrics().setQueueSource(queueSource(queues));
    try {
      expect(await value("reviews_queue_jobs", { queue: "maintenance", state: "waiting" })).toBe(2);
      expect(await value("reviews_queue_jobs", { queue: "maintenance", state: "delayed" })).toBe(1);
      expect(await value("reviews_queue_jobs", { queue: "catalog", state: "waiting" })).toBe(0);
      const age = await value("reviews_queue_oldest_waiting_seconds", { queue: "maintenance" });
      expect(age).toBeGreaterThanOrEqual((Date.now() - first.timestamp) / 1000 - 5);
      expect(age).toBeLessThan(200);
      expect(await value("reviews_queue_oldest_waiting_seconds", { queue: "catalog" })).toBe(0);
    } finally {
      metrics().setQueueSource(undefined);
    }
  });

  it("GIVEN service paths with SKUs, ids and tokens THEN the endpoint label keeps only the documented words", () => {
    expect(endpointLabel("/acme/products/batch")).toBe("products/batch");
    expect(endpointLabel("/acme/products/TEE%2FBLUE-1")).toBe("products/:id");
    expect(endpointLabel("/acme/orders/***/5923018113099")).toBe("orders/:id/:id");
    expect(endpointLabel("/acme/tee-blue/summary/rating,desc")).toBe(":id/summary/:id");
    expect(endpointLabel("/acme/store-reviews/published")).toBe("store-reviews/published");
  });
});
