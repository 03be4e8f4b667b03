import { describe, expect, it } from "vitest";
import { CostBucket, ThrottleRegistry, waitForCost } from "./throttle";

describe("cost throttle", () => {
  it("waitForCost: the missing points divided by the restore rate", () => {
    const status = { maximumAvailable: 2000, currentlyAvailable: 50, restoreRate: 100 };
    expect(waitForCost(status, 264)).toBe(2140);
    expect(waitForCost(status, 50)).toBe(0);
    // A cost above the bucket size can only wait for a full bucket.
    expect(waitForCost({ ...status, currentlyAvailable: 1900 }, 5000)).toBe(1000);
  });

  it("waits nothing before the first answer (nothing known yet)", () => {
    const bucket = new CostBucket(() => 0);
    expect(bucket.reserve("query A { a }").waitMs).toBe(0);
  });

  it("waits when the projected bucket cannot pay the document's last requested cost", () => {
    let now = 0;
    const bucket = new CostBucket(() => now);
    bucket.observe("doc", {
      requestedQueryCost: 264,
      actualQueryCost: 12,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 64, restoreRate: 100 },
    });
    expect(bucket.reserve("doc").waitMs).toBe(2000);
    // Time refills the projection.
    now = 1500;
    const r = new CostBucket(() => now);
    r.observe("doc", {
      requestedQueryCost: 264,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 64, restoreRate: 100 },
    });
    now = 2500;
    expect(r.reserve("doc").waitMs).toBe(1000);
  });

  it("uses each document's own cost, and the shop's last cost for a document never seen", () => {
    const bucket = new CostBucket(() => 0);
    bucket.observe("small", {
      requestedQueryCost: 2,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 100, restoreRate: 100 },
    });
    bucket.observe("big", {
      requestedQueryCost: 300,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 100, restoreRate: 100 },
    });
    expect(bucket.reserve("small").waitMs).toBe(0);
    const fresh = new CostBucket(() => 0);
    fresh.observe("big", {
      requestedQueryCost: 300,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 100, restoreRate: 100 },
    });
    expect(fresh.reserve("unknown").waitMs).toBe(2000);
  });

  it("concurrent callers queue behind each other's reservations", () => {
    const bucket = new CostBucket(() => 0);
    bucket.observe("doc", {
      requestedQueryCost: 100,
      throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 250, restoreRate: 50 },
    });
    const waits = [bucket.reserve("doc"), bucket.reserve("doc"), bucket.reserve("doc"), bucket.reserve("doc")].map(
      (r) => r.waitMs,
    );
    expect(waits).toEqual([0, 0, 1000, 3000]);
  });

  it("registry keeps one bucket per shop", () => {
    const registry = new ThrottleRegistry(() => 0);
    expect(registry.bucket("a.myshopify.com")).toBe(registry.bucket("a.myshopify.com"));
    expect(registry.bucket("a.myshopify.com")).not.toBe(registry.bucket("b.myshopify.com"));
  });
});
