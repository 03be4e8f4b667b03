import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { QueueName } from "../../app/.server/queues/names";
import { pendingChangesKeys } from "../../app/.server/catalog/pending-changes";
import { keyspaceOf } from "../../app/.server/queues/keyspace";
import { CATALOG_SWEEP } from "../../app/.server/jobs";

// Catalog changes that wait with no flush coming for them (the flush job used up its attempts, or
// the shop was away) are found by the periodic sweep: real Redis, real workers, the emulator.

const shop = "catalog-sweep.myshopify.com";
let s: Stack;

beforeAll(async () => {
  s = await startStack("catalog-sweep", { CATALOG_SWEEP_MS: "3600000" });
  await s.connect(shop);
});
afterAll(async () => s.close());

const upstream = (sku: string) => s.emu.control.state("acme").products.find((p) => p.sku === sku);

describe("catalog sweep", () => {
  it("GIVEN the workers start THEN the sweep is scheduled every CATALOG_SWEEP_MS, the first one interval later (not at once)", async () => {
    const maintenance = s.web.queues.get(QueueName.maintenance);
    // (The maintenance queue has other schedulers too: the token migration's.)
    const schedulers = await eventually(
      () => maintenance.getJobSchedulers(),
      (list) => list.some((j) => j.key === CATALOG_SWEEP),
    );
    const sweep = schedulers.filter((j) => j.key === CATALOG_SWEEP);
    // Iteration 1 still to come (a sweep run at start would have moved it to 2).
    expect(sweep).toEqual([expect.objectContaining({ key: CATALOG_SWEEP, every: 3_600_000, iterationCount: 1 })]);
    expect(sweep[0]!.next).toBeGreaterThan(Date.now() + 3_500_000);
  });

  it("GIVEN changes that wait with no flush planned THEN a sweep sends them, and a sweep with nothing waiting does nothing", async () => {
    const shopId = (await s.web.shops.get(shop)).id;
    // Staged as the worker stages, but the flush job that should carry them is gone.
    for (const sku of ["5101", "5102"])
      await s.worker.pending.stage(shopId, {
        productId: sku,
        sku,
        hash: `h-${sku}`,
        product: { sku, name: `Stranded ${sku}`, categories: ["Mugs"] },
      });
    const maintenance = s.web.queues.get(QueueName.maintenance);
    await maintenance.add(CATALOG_SWEEP, {});
    await eventually(
      async () => [upstream("5101"), upstream("5102")],
      (p) => p.every(Boolean),
      20_000,
    );
    expect(upstream("5101")?.name).toBe("Stranded 5101");
    // Nothing pending is not yet nothing running: the flush's mirror writes and jobs end after it.
    await s.idle();

    const since = s.emu.control.lastRequestSeq();
    const job = await maintenance.add(CATALOG_SWEEP, {});
    await eventually(
      () => job.getState(),
      (state) => state === "completed" || state === "unknown",
    );
    expect(s.emu.control.requests(since).filter((r) => r.path.endsWith("/products/batch"))).toHaveLength(0);
  });

  it("GIVEN shops that staged changes THEN the sweep reads the set of them, and leaves out and forgets those with none left", async () => {
    const shopId = (await s.web.shops.get(shop)).id;
    const redis = s.web.queues.redis;
    // The names on the Redis the file runs on: on a cluster, a shop's keys carry its tag.
    const keys = pendingChangesKeys(keyspaceOf(redis, s.prefix));
    const registry = keys.shops;
    await s.idle();
    // A shop whose last changes were sent, and one written by a release that kept no set.
    await redis.sadd(registry, "shop-sent-long-ago");
    await redis.hset(keys.pending("shop-before-the-set"), "5201", "{}");
    expect(await s.worker.pending.shopsWithChanges()).toEqual([]);
    expect(await redis.smembers(registry)).toEqual([]);
    expect(await s.worker.pending.registerStagedBefore()).toBe(1);
    expect(await s.worker.pending.shopsWithChanges()).toEqual(["shop-before-the-set"]);
    await s.worker.pending.clear("shop-before-the-set");
    expect(await redis.smembers(registry)).toEqual([]);

    await s.worker.pending.stage(shopId, {
      productId: "5301",
      sku: "5301",
      hash: "h-5301",
      product: { sku: "5301", name: "Staged 5301", categories: ["Mugs"] },
    });
    expect(await s.worker.pending.shopsWithChanges()).toEqual([shopId]);
    await s.web.queues.get(QueueName.maintenance).add(CATALOG_SWEEP, {});
    await eventually(
      async () => upstream("5301"),
      (p) => Boolean(p),
      20_000,
    );
    await s.idle();
    expect(await s.worker.pending.shopsWithChanges()).toEqual([]);
  });
});
