import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deletePrefix, testRedis } from "../../../test/helpers/redis";
import { scanKeys } from "../queues/connection";
import { type Stub, startStub, tokenIssuer } from "./http-stub.testkit";
import type { ReviewsAccount } from "./client-options";
import { createReviewsClient } from "./reviews-client";
import { tokenCacheKey, tokenReuseMs } from "./token";
import { memoryTokenCache, redisTokenCache } from "./token-cache";

const prefix = `test:reviews-token:${randomUUID()}:`;
let redis: Redis;
let other: Redis;
let stub: Stub | null = null;

beforeAll(() => {
  redis = testRedis();
  // A second connection stands for a second process.
  other = testRedis();
});

afterEach(async () => {
  await stub?.close();
  stub = null;
  await deletePrefix(prefix);
});

afterAll(async () => {
  await redis.quit();
  await other.quit();
});

const batch = { received: 1, processed: 1, created: 0, updated: 1, unchanged: 0, failed: 0, errors: [] };

function account(origin: string): ReviewsAccount {
  return {
    customer: "acme-store",
    clientId: "client-1",
    clientSecret: "do-not-store-me",
    apiUrl: `${origin}/api`,
    authUrl: `${origin}/auth`,
    rateUrl: origin,
  };
}

describe("tokenReuseMs", () => {
  it("ends 60 s early for long tokens and 10 % early for short ones", () => {
    expect(tokenReuseMs(86_400)).toBe(86_340_000);
    expect(tokenReuseMs(300)).toBe(270_000);
    expect(tokenReuseMs(2)).toBe(1_800);
  });
});

describe("tokenCacheKey", () => {
  it("depends on auth URL, API URL and client id, and never contains the secret", () => {
    const a = { authUrl: "https://auth.x", apiUrl: "https://api.x", clientId: "c1" };
    expect(tokenCacheKey(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenCacheKey(a)).toBe(tokenCacheKey({ ...a, apiUrl: "https://api.x/" }));
    expect(tokenCacheKey(a)).not.toBe(tokenCacheKey({ ...a, clientId: "c2" }));
    expect(tokenCacheKey(a)).not.toBe(tokenCacheKey({ ...a, authUrl: "https://auth.y" }));
  });
});

describe("redisTokenCache", () => {
  it("shares one token between two clients on two connections, even when both start at once", async () => {
    const tokens = tokenIssuer({ expiresIn: 3600, delayMs: 150 });
    stub = await startStub((req) =>
      req.path === "/auth/oauth/token" ? tokens.answer() : { status: 200, json: batch },
    );
    const first = createReviewsClient({ account: account(stub.origin), tokenCache: redisTokenCache(redis, prefix) });
    const second = createReviewsClient({ account: account(stub.origin), tokenCache: redisTokenCache(other, prefix) });

    await Promise.all([
      first.admin.sendCatalogBatch([{ sku: "A" }]),
      second.admin.sendCatalogBatch([{ sku: "A" }]),
      second.admin.sendCatalogBatch([{ sku: "B" }]),
    ]);
    await first.admin.sendCatalogBatch([{ sku: "C" }]);

    expect(tokens.issued).toBe(1);
    expect(stub.count("/api/")).toBe(4);
    expect(
      new Set(stub.requests.filter((r) => r.path.startsWith("/api/")).map((r) => r.headers.authorization)),
    ).toEqual(new Set(["Bearer token-1"]));
  });

  it("stores the token with a TTL ending before expiry and without the secret", async () => {
    const tokens = tokenIssuer({ expiresIn: 3600 });
    stub = await startStub((req) =>
      req.path === "/auth/oauth/token" ? tokens.answer() : { status: 200, json: batch },
    );
    const acc = account(stub.origin);
    await createReviewsClient({ account: acc, tokenCache: redisTokenCache(redis, prefix) }).admin.sendCatalogBatch([
      { sku: "A" },
    ]);

    const key = `${prefix}token:${tokenCacheKey(acc)}`;
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(3_480_000);
    expect(ttl).toBeLessThanOrEqual(3_540_000);
    const raw = (await redis.get(key))!;
    expect(JSON.parse(raw)).toMatchObject({ token: "token-1" });
    for (const k of await scanKeys(redis, `${prefix}*`)) {
      expect(k).not.toContain(acc.clientSecret);
      expect((await redis.get(k)) ?? "").not.toContain(acc.clientSecret);
    }
  });

  it("after a 401 one process refreshes and the other picks up the new token", async () => {
    const tokens = tokenIssuer({ expiresIn: 3600 });
    let revoked = "";
    stub = await startStub((req) => {
      if (req.path === "/auth/oauth/token") return tokens.answer();
      if (req.headers.authorization === `Bearer ${revoked}`) return { status: 401, json: { message: "expired" } };
      return { status: 200, json: batch };
    });
    const first = createReviewsClient({ account: account(stub.origin), tokenCache: redisTokenCache(redis, prefix) });
    const second = createReviewsClient({ account: account(stub.origin), tokenCache: redisTokenCache(other, prefix) });
    await first.admin.sendCatalogBatch([{ sku: "A" }]);
    revoked = "token-1";

    await first.admin.sendCatalogBatch([{ sku: "A" }]);
    await second.admin.sendCatalogBatch([{ sku: "A" }]);

    expect(tokens.issued).toBe(2);
    expect(stub.requests.at(-1)!.headers.authorization).toBe("Bearer token-2");
  });

  it("lock: one holder at a time, released only by its owner", async () => {
    const cache = redisTokenCache(redis, prefix);
    const release = await cache.lock("k", 10_000);
    expect(release).not.toBeNull();
    expect(await redisTokenCache(other, prefix).lock("k", 10_000)).toBeNull();
    await release!();
    const again = await redisTokenCache(other, prefix).lock("k", 10_000);
    expect(again).not.toBeNull();
    await again!();
  });

  it("a corrupt cached value reads as a miss", async () => {
    await redis.set(`${prefix}token:k`, "{not json");
    expect(await redisTokenCache(redis, prefix).get("k")).toBeNull();
  });
});

describe("memoryTokenCache", () => {
  it("expires entries and locks by the injected clock", async () => {
    let clock = 0;
    const cache = memoryTokenCache({ now: () => clock });
    await cache.set("k", { token: "t", expiresAt: 10_000 }, 1_000);
    expect(await cache.get("k")).toEqual({ token: "t", expiresAt: 10_000 });
    clock = 1_000;
    expect(await cache.get("k")).toBeNull();

    const release = await cache.lock("k", 500);
    expect(await cache.lock("k", 500)).toBeNull();
    clock = 1_600;
    expect(await cache.lock("k", 500)).not.toBeNull();
    await release!(); // a stale owner does not free the new holder's lock
    expect(await cache.lock("k", 500)).toBeNull();
  });
});
