import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/helpers/contexts";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { withRenewedLock } from "./renewed-lock";

const prefix = uniquePrefix("renewed-lock");
const redis = testRedis({ maxRetriesPerRequest: 3 });
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

  it("GIVEN the key gone from under its holder THEN its lease aborts at the next renewal, not TTL later", async () => {
    const key = `${prefix}:gone`;
    const lease = await withRenewedLock(
      redis,
      key,
      async (lease) => {
        expect(lease.aborted).toBe(false);
        // What a Redis restart that lost the key looks like to the holder; another may take it now.
        await redis.del(key);
        await eventually(
          async () => lease.aborted,
          (aborted) => aborted,
          2_000,
        );
        return lease;
      },
      { ttlMs: 3_000, waitMs: 0, timeoutError },
    );
    expect(lease.reason).toBeInstanceOf(Error);
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
