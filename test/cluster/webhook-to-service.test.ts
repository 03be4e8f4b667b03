import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../helpers/stack";
import { eventually } from "../helpers/contexts";
import { scanKeys } from "../../app/.server/queues/connection";
import { allQueueNames, QueueName } from "../../app/.server/queues/names";
import { createQueues } from "../../app/.server/queues/queues";

// The app unchanged on a three-master Redis Cluster (the `cluster` project): a signed webhook
// delivered to its route is stored as a BullMQ job, the real workers take it, stage the product in
// the shop's pending changes and flush them, and the reviews emulator receives the batch. Then the
// keys it left say why that worked: each queue's keys in one slot, each shop's in one slot. And with
// no node answering, the route still fails fast (503), as it does on one Redis.

const fixture = JSON.parse(readFileSync("test/fixtures/products/apparel-tee.products-update.json", "utf8"));
const SHOPS = ["cluster-one.myshopify.com", "cluster-two.myshopify.com"];
let s: Stack;

beforeAll(async () => {
  s = await startStack("cluster-e2e", { CATALOG_FLUSH_WINDOW_MS: "200", CATALOG_FLUSH_MAX_WAIT_MS: "1000" });
  for (const shop of SHOPS) await s.connect(shop);
});
afterAll(async () => s?.close());

const stored = (sku: string) => s.emu.control.state("acme").products.find((p) => p.sku === sku);
const product = (id: number, title: string) => ({
  ...fixture,
  id,
  admin_graphql_api_id: `gid://shopify/Product/${id}`,
  title,
  handle: `product-${id}`,
});

describe("the app on a Redis Cluster", () => {
  it("GIVEN REDIS_CLUSTER THEN every connection of the stack is a cluster client", () => {
    expect(s.config.REDIS_CLUSTER).toBe(true);
    expect(s.config.REDIS_URL.split(",")).toHaveLength(3);
    expect(s.web.queues.redis.isCluster).toBe(true);
    expect(s.worker.queues.redis.isCluster).toBe(true);
  });

  it("GIVEN products/create of two shops THEN route → queue → worker → pending changes → service, for each", async () => {
    const deliveries = [
      { shop: SHOPS[0]!, body: product(7001001, "Cluster Tee One"), webhookId: "cluster-create-1" },
      { shop: SHOPS[1]!, body: product(7001002, "Cluster Tee Two"), webhookId: "cluster-create-2" },
    ];
    const webhooks = s.web.queues.get(QueueName.webhooks);
    for (const d of deliveries) {
      const response = await s.deliver("products/create", d.shop, d.body, { webhookId: d.webhookId });
      expect(response.status).toBe(200);
      // Acknowledged only once stored: the job is in the queue now (or already taken).
      expect(await webhooks.getJob(`wh-${d.webhookId}`)).toBeDefined();
    }
    await eventually(
      async () => [stored("7001001"), stored("7001002")],
      (found) => found.every(Boolean),
      20_000,
    );
    expect(stored("7001001")?.name).toBe("Cluster Tee One");
    expect(stored("7001002")?.name).toBe("Cluster Tee Two");
    for (const d of deliveries)
      expect(await (await webhooks.getJob(`wh-${d.webhookId}`))?.getState()).toBe("completed");
    await s.idle();
    expect(await s.worker.pending.shopsWithChanges()).toEqual([]);
  });

  it("GIVEN the keys the run left THEN each queue's share one slot, and each shop's catalog keys share one", async () => {
    const redis = s.web.queues.redis;
    const slot = async (key: string) => Number(await redis.call("CLUSTER", "KEYSLOT", key));
    const slots = async (keys: string[]) => new Set(await Promise.all(keys.map(slot)));
    const keys = await scanKeys(redis, `${s.prefix}:*`);
    for (const queue of allQueueNames) {
      const ofQueue = keys.filter((k) => k.startsWith(`${s.prefix}:{${queue}}:`));
      expect(await slots(ofQueue), queue).toEqual(new Set(ofQueue.length ? [await slot(`{${queue}}`)] : []));
      // None of BullMQ's keys under the plain prefix, where one Redis keeps them.
      expect(keys, queue).not.toContain(`${s.prefix}:${queue}:meta`);
    }
    for (const queue of [QueueName.webhooks, QueueName.catalog])
      expect(keys).toContain(`${s.prefix}:{${queue}}:${queue}:meta`);
    for (const shop of SHOPS) {
      const shopId = (await s.web.shops.get(shop)).id;
      const ofShop = keys.filter((k) => k.startsWith(`${s.prefix}:catalog:`) && k.endsWith(`:{${shopId}}`));
      // What a flushed shop keeps: when it last staged, the hashes the service accepted, the newest versions.
      expect(ofShop.length).toBeGreaterThanOrEqual(2);
      expect(await slots(ofShop)).toEqual(new Set([await slot(`{${shopId}}`)]));
    }
  });

  it("GIVEN no node of the cluster answers THEN a webhook gets 503 within the fail-fast bound, so Shopify retries", async () => {
    const { setAppContext } = await import("../../app/.server/context.server");
    // Ports 1 and 2 on loopback: nothing listens there.
    const redisUrl = "redis://127.0.0.1:1,redis://127.0.0.1:2";
    const down = { ...s.web, queues: createQueues({ redisUrl, cluster: true, prefix: s.prefix, role: "producer" }) };
    setAppContext(down);
    try {
      const started = Date.now();
      expect((await s.deliver("products/create", SHOPS[0]!, product(7001003, "Never stored"))).status).toBe(503);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      setAppContext(s.web);
      await down.queues.close();
    }
  });
});
