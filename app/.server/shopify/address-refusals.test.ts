import { afterAll, describe, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { createAddressRefusals } from "./address-refusals";

// The refused-address state on real Redis (one Redis in the integration project, a Redis Cluster in
// the cluster project): what every process reads about a shop Shopify refuses, and the jobs parked
// meanwhile.

const prefix = uniquePrefix("address-refusals");
const redis = testRedis({ maxRetriesPerRequest: 3 });
const refusals = createAddressRefusals(redis, prefix);
afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
});

const at = (iso: string) => new Date(iso);

describe("address refusals", () => {
  it("GIVEN a shop refused twice THEN the first refusal counts as the first, its time stays and the detail is the last one", async () => {
    const shop = "refused-twice.myshopify.com";
    expect(await refusals.get(shop)).toBeNull();
    expect(await refusals.refuse(shop, "first body", at("2026-11-27T08:00:00Z"))).toEqual({ first: true });
    expect(await refusals.refuse(shop, "second body", at("2026-11-27T08:05:00Z"))).toEqual({ first: false });
    expect(await refusals.get(shop)).toEqual({
      shop,
      since: at("2026-11-27T08:00:00Z"),
      detail: "second body",
      probes: 0,
      nextProbeAt: null,
      lastProbeAt: null,
    });
    expect(await refusals.refusedShops()).toContain(shop);
  });

  it("GIVEN probes that do not pass THEN each is counted with when it ran and when the next one is due", async () => {
    const shop = "probed.myshopify.com";
    await refusals.refuse(shop, "refused", at("2026-11-27T08:00:00Z"));
    await refusals.scheduled(shop, at("2026-11-27T08:00:30Z"));
    expect((await refusals.get(shop))?.nextProbeAt).toEqual(at("2026-11-27T08:00:30Z"));
    expect(await refusals.probed(shop, at("2026-11-27T08:01:30Z"), at("2026-11-27T08:00:30Z"))).toBe(1);
    expect(await refusals.probed(shop, at("2026-11-27T08:03:30Z"), at("2026-11-27T08:01:30Z"))).toBe(2);
    expect(await refusals.get(shop)).toMatchObject({
      probes: 2,
      lastProbeAt: at("2026-11-27T08:01:30Z"),
      nextProbeAt: at("2026-11-27T08:03:30Z"),
    });
  });

  it("GIVEN jobs parked while refused THEN clearing hands them back once and forgets the shop, not another", async () => {
    const shop = "parked.myshopify.com";
    const other = "still-refused.myshopify.com";
    await refusals.refuse(shop, "refused");
    await refusals.refuse(other, "refused");
    await refusals.park(shop, { queue: "sync", jobId: "catalog-read-1" });
    await refusals.park(shop, { queue: "maintenance", jobId: "42" });
    await refusals.park(shop, { queue: "maintenance", jobId: "42" });
    await refusals.park(other, { queue: "webhooks", jobId: "7" });
    expect(await refusals.parkedCount(shop)).toBe(2);

    const handed = await refusals.clear(shop);
    expect(handed.sort((a, b) => a.jobId.localeCompare(b.jobId))).toEqual([
      { queue: "maintenance", jobId: "42" },
      { queue: "sync", jobId: "catalog-read-1" },
    ]);
    expect(await refusals.get(shop)).toBeNull();
    expect(await refusals.parkedCount(shop)).toBe(0);
    expect(await refusals.clear(shop)).toEqual([]);
    expect(await refusals.refusedShops()).not.toContain(shop);

    expect(await refusals.refusedShops()).toContain(other);
    expect(await refusals.parkedCount(other)).toBe(1);
  });
});
