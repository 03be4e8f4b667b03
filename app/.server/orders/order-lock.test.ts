import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/helpers/contexts";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { orderLockKey, OrderLockTimeoutError, withOrderLock } from "./order-lock";

const prefix = uniquePrefix("order-lock");
const redis = testRedis({ maxRetriesPerRequest: 3 });
afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
});

/** A promise and the function that settles it: lets a test hold a lock as long as it wants. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("order lock", () => {
  it("GIVEN two jobs of the same order THEN the second starts only after the first ended", async () => {
    const log: string[] = [];
    const first = gate();
    const a = withOrderLock(redis, prefix, "shop1", "42", async () => {
      log.push("a start");
      await first.opened;
      log.push("a end");
    });
    await eventually(
      () => redis.exists(orderLockKey(prefix, "shop1", "42")),
      (n) => n === 1,
    );
    const b = withOrderLock(redis, prefix, "shop1", "42", async () => {
      log.push("b start");
    });
    // b is waiting; another order of the same shop is not.
    await withOrderLock(redis, prefix, "shop1", "43", async () => log.push("other order"));
    expect(log).toEqual(["a start", "other order"]);
    first.open();
    await Promise.all([a, b]);
    expect(log).toEqual(["a start", "other order", "a end", "b start"]);
    expect(await redis.exists(orderLockKey(prefix, "shop1", "42"))).toBe(0);
  });

  it("GIVEN the lock held past the wait THEN the job gives up with a retryable error; a failing holder releases it", async () => {
    const held = gate();
    const holder = withOrderLock(redis, prefix, "shop1", "44", () => held.opened);
    await eventually(
      () => redis.exists(orderLockKey(prefix, "shop1", "44")),
      (n) => n === 1,
    );
    await expect(withOrderLock(redis, prefix, "shop1", "44", async () => 1, { waitMs: 50 })).rejects.toBeInstanceOf(
      OrderLockTimeoutError,
    );
    held.open();
    await holder;

    await expect(
      withOrderLock(redis, prefix, "shop1", "45", async () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow("boom");
    expect(await withOrderLock(redis, prefix, "shop1", "45", async () => "free", { waitMs: 0 })).toBe("free");
  });

  it("GIVEN a holder that died THEN the lock expires by itself", async () => {
    await redis.set(orderLockKey(prefix, "shop1", "46"), "dead-holder", "PX", 100);
    expect(await withOrderLock(redis, prefix, "shop1", "46", async () => "taken over", { waitMs: 2_000 })).toBe(
      "taken over",
    );
  });
});
