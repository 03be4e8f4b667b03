import { describe, expect, it } from "vitest";
import { ReviewsRateLimitedError, ReviewsRetryableError } from "../reviews";
import { ShopifyThrottledError } from "../shopify/errors";
import { GiveUp, honouringServiceLimit, outcomeOf, RetryLater, shopifyThrottleAsRetry } from "./outcome";

// How a use case's end becomes its outcome: what deep code threw as "not now" or "never", and the
// service's and Shopify's limits read as "come back later".

const request = { api: "admin" as const, method: "POST", path: "/api/acme/orders" };

describe("outcomeOf", () => {
  it("GIVEN the use case returns THEN done with its answer", async () => {
    expect(await outcomeOf(async () => ({ sent: 2 }))).toEqual({ kind: "done", value: { sent: 2 } });
  });

  it("GIVEN GiveUp deep inside THEN give up with its reason", async () => {
    expect(await outcomeOf(() => Promise.reject(new GiveUp("order 7 refused")))).toEqual({
      kind: "give-up",
      reason: "order 7 refused",
    });
  });

  it("GIVEN RetryLater THEN retry later with its delay, its cause and its answer for a job that cannot wait", async () => {
    const cause = new Error("429");
    const outcome = await outcomeOf(() =>
      Promise.reject(new RetryLater("taken over", 30_000, { cause, otherwise: { takenOver: true } })),
    );
    expect(outcome).toEqual({
      kind: "retry-later",
      delayMs: 30_000,
      reason: "taken over",
      cause,
      otherwise: { takenOver: true },
    });
  });

  it("GIVEN any other error THEN it is thrown on, for the queue to retry", async () => {
    await expect(outcomeOf(() => Promise.reject(new Error("socket hang up")))).rejects.toThrow("socket hang up");
  });
});

describe("limits as retry later", () => {
  it("GIVEN the service's 429 THEN retry after its Retry-After, the 429 as cause", async () => {
    const limited = new ReviewsRateLimitedError("slow down", { request, status: 429, retryAfterMs: 1500 });
    expect(await outcomeOf(() => honouringServiceLimit(() => Promise.reject(limited)))).toEqual({
      kind: "retry-later",
      delayMs: 1500,
      reason: "rate limited by the service for 1500 ms",
      cause: limited,
    });
  });

  it("GIVEN the service down THEN not a retry later: the queue's backoff decides", async () => {
    const down = new ReviewsRetryableError("down", { request, status: 503, reason: "server" });
    await expect(honouringServiceLimit(() => Promise.reject(down))).rejects.toBe(down);
  });

  it("GIVEN Shopify throttled THEN retry when its bucket has refilled", () => {
    const throttled = new ShopifyThrottledError("throttled", { retryAfterMs: 2000 });
    const retry = shopifyThrottleAsRetry(throttled) as RetryLater;
    expect(retry).toBeInstanceOf(RetryLater);
    expect([retry.delayMs, retry.message, retry.cause]).toEqual([2000, "throttled by Shopify for 2000 ms", throttled]);
  });
});
