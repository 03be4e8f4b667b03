import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/helpers/contexts";
import { deletePrefix, testRedis, uniquePrefix } from "../../../test/helpers/redis";
import { HEARTBEAT_STALE_MS, lastHeartbeat, startHeartbeat } from "./worker-heartbeat";

// Worker heartbeats on real Redis (one Redis in the integration project, a Redis Cluster in the
// cluster project): what the Sync page reads to say whether any worker is alive.

const prefix = uniquePrefix("heartbeat");
const redis = testRedis({ maxRetriesPerRequest: 3 });
afterAll(async () => {
  await deletePrefix(prefix);
  redis.disconnect();
});

describe("worker heartbeat", () => {
  it("GIVEN two worker processes beating THEN both count, and one that stops is taken off at once", async () => {
    expect(await lastHeartbeat(redis, prefix)).toBeNull();
    const started = Date.now();
    const stopA = startHeartbeat(redis, prefix);
    const stopB = startHeartbeat(redis, prefix);
    const seen = await eventually(
      () => lastHeartbeat(redis, prefix),
      (beat) => beat?.workers === 2,
    );
    expect(seen!.at).toBeGreaterThanOrEqual(started);
    await stopA();
    expect((await lastHeartbeat(redis, prefix))?.workers).toBe(1);
    await stopB();
    expect(await lastHeartbeat(redis, prefix)).toBeNull();
  });

  it("GIVEN a beat older than the staleness bound THEN no worker counts as alive", async () => {
    const stop = startHeartbeat(redis, prefix);
    try {
      const beat = await eventually(() => lastHeartbeat(redis, prefix), Boolean);
      expect(await lastHeartbeat(redis, prefix, beat!.at + HEARTBEAT_STALE_MS + 1)).toBeNull();
    } finally {
      await stop();
    }
  });
});
