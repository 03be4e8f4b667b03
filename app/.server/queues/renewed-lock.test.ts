import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { deletePrefix, redisUrl, uniquePrefix } from "../../../test/helpers/redis";
import { withRenewedLock } from "./renewed-lock";

const prefix = uniquePrefix("renewed-lock");
const redis = new Redis(redisUrl(), { maxRetriesPerRequest: 3 });
afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
});

const timeoutError = () => new Error("still held");

describe("renewed lock", () => {
  it("GIVEN a holder working for several TTLs THEN nobody else gets the lock meanwhile, and it is free once the holder is done", async () => {
    const key = `${prefix}:long`;
    let release!: () => void;
    const working = new Promise<void>((r) => (release = r));
    const holder = withRenewedLock(redis, key, () => working, { ttlMs: 300, waitMs: 0, timeoutError });
    // Waits more than three TTLs: an unrenewed lock would have lapsed long before.
    await expect(
      withRenewedLock(redis, key, async () => "taken", { ttlMs: 300, waitMs: 1_000, timeoutError }),
    ).rejects.toThrow("still held");
    release();
    await holder;
    expect(await withRenewedLock(redis, key, async () => "free", { ttlMs: 300, waitMs: 0, timeoutError })).toBe("free");
  });

  it("GIVEN a holder that died THEN the lock is free within one TTL", async () => {
    const key = `${prefix}:dead`;
    await redis.set(key, "killed-worker", "PX", 300);
    const started = Date.now();
    expect(
      await withRenewedLock(redis, key, async () => "taken over", { ttlMs: 300, waitMs: 5_000, timeoutError }),
    ).toBe("taken over");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
