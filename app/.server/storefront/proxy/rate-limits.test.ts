import { afterAll, describe, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../../test/helpers/redis";
import { createRateLimiter } from "./rate-limits";

// The app proxy's fixed-window limits on real Redis (one Redis in the integration project, a Redis
// Cluster in the cluster project), shared by every process: a second limiter stands for another.

const prefix = uniquePrefix("rate-limits");
const redis = testRedis({ maxRetriesPerRequest: 3 });
const other = testRedis({ maxRetriesPerRequest: 3 });
afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
  other.disconnect();
});

describe("proxy rate limits", () => {
  it("GIVEN more hits than the rule allows, from two processes THEN the ones past the limit are refused with a wait", async () => {
    // A window of decades: the test's hits cannot straddle two windows.
    const rule = { max: 3, windowMs: 1e12 };
    const [a, b] = [createRateLimiter(redis, prefix), createRateLimiter(other, prefix)];
    const results = [];
    for (const limiter of [a, b, a, b, a]) results.push(await limiter.hit("ip", "203.0.113.7", rule));
    expect(results.slice(0, 3)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    for (const refused of results.slice(3)) {
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
    // Another subject and another scope count on their own.
    expect(await a.hit("ip", "203.0.113.8", rule)).toEqual({ ok: true });
    expect(await a.hit("shop", "203.0.113.7", rule)).toEqual({ ok: true });
  });

  it("GIVEN a rule of 0 THEN it is off", async () => {
    const limiter = createRateLimiter(redis, prefix);
    for (let i = 0; i < 3; i++)
      expect(await limiter.hit("ip", "off", { max: 0, windowMs: 1_000 })).toEqual({ ok: true });
  });
});
