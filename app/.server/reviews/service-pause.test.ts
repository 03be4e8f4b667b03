import { afterAll, afterEach, describe, expect, it } from "vitest";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { ReviewsRateLimitedError } from "./errors";
import { type Stub, startStub, tokenIssuer } from "./http-stub.testkit";
import type { ReviewsAccount } from "./client-options";
import { createReviewsClient } from "./reviews-client";
import { memoryServicePause, redisServicePause } from "./service-pause";
import { memoryTokenCache } from "./token-cache";

// A 429's Retry-After holds back every admin call of the account, in this process and others,
// without a request going out while it lasts.

const prefix = uniquePrefix("service-pause");
const redis = testRedis();
let stub: Stub | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});
afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
});

const batch = [{ sku: "P-1", name: "Mug", categories: ["Kitchen"] }];
const okBatch = { received: 1, processed: 1, created: 1, updated: 0, unchanged: 0, failed: 0, errors: [] };

/** A service that answers 429 with `Retry-After: retryAfter` to the first catalog call, 200 after. */
async function throttledOnce(retryAfter: string) {
  const tokens = tokenIssuer();
  let calls = 0;
  stub = await startStub((req) => {
    if (req.path === "/auth/oauth/token") return tokens.answer();
    calls++;
    return calls === 1
      ? { status: 429, json: { error: "rate_limited" }, headers: { "Retry-After": retryAfter } }
      : { status: 200, json: okBatch };
  });
  const account: ReviewsAccount = {
    customer: "acme",
    clientId: "client-1",
    clientSecret: "secret-0123456789",
    apiUrl: `${stub.origin}/api`,
    authUrl: `${stub.origin}/auth`,
    rateUrl: stub.origin,
  };
  return { stub, account, apiCalls: () => stub!.count("/api") };
}

async function rateLimited(p: Promise<unknown>): Promise<ReviewsRateLimitedError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReviewsRateLimitedError);
  return error as ReviewsRateLimitedError;
}

describe("pause after a 429", () => {
  it("GIVEN a 429 with Retry-After 30 THEN the next call of the account fails unsent, asking for what is left of the 30 s", async () => {
    const { account, apiCalls } = await throttledOnce("30");
    const client = createReviewsClient({ account, tokenCache: memoryTokenCache(), pause: memoryServicePause() });
    expect((await rateLimited(client.admin.sendCatalogBatch(batch))).retryAfterMs).toBe(30_000);
    const second = await rateLimited(client.admin.sendCatalogBatch(batch));
    expect(second.status).toBeNull();
    expect(second.retryAfterMs).toBeGreaterThan(29_000);
    expect(second.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(apiCalls()).toBe(1);
  });

  it("GIVEN the pause in Redis THEN another client of the same account (another process) waits too, and calls again once it has passed", async () => {
    const { account, apiCalls } = await throttledOnce("1");
    const pause = () => redisServicePause(redis, prefix, account);
    const first = createReviewsClient({ account, tokenCache: memoryTokenCache(), pause: pause() });
    const other = createReviewsClient({ account, tokenCache: memoryTokenCache(), pause: pause() });
    await rateLimited(first.admin.sendCatalogBatch(batch));
    const waitMs = (await rateLimited(other.admin.sendCatalogBatch(batch))).retryAfterMs;
    expect(waitMs).toBeGreaterThan(0);
    expect(apiCalls()).toBe(1);

    // Polled, not slept: the pause is over when Redis says so.
    while ((await pause().remainingMs()) > 0) await new Promise((r) => setTimeout(r, 50));
    expect((await other.admin.sendCatalogBatch(batch)).created).toBe(1);
    expect(apiCalls()).toBe(2);
  });

  it("GIVEN a running pause THEN a shorter Retry-After does not cut it short", async () => {
    const pause = redisServicePause(redis, prefix, {
      authUrl: "http://a",
      apiUrl: "http://b",
      clientId: "longer-wins",
    });
    await pause.hold(5_000);
    await pause.hold(100);
    expect(await pause.remainingMs()).toBeGreaterThan(4_000);
    await pause.hold(10_000);
    expect(await pause.remainingMs()).toBeGreaterThan(9_000);
  });

  it("GIVEN no pause configured THEN each call meets the service's answer itself", async () => {
    const { account, apiCalls } = await throttledOnce("30");
    const client = createReviewsClient({ account, tokenCache: memoryTokenCache() });
    await rateLimited(client.admin.sendCatalogBatch(batch));
    expect((await client.admin.sendCatalogBatch(batch)).created).toBe(1);
    expect(apiCalls()).toBe(2);
  });
});
