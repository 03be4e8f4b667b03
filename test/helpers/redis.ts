import { randomBytes } from "node:crypto";
import type { Redis, RedisOptions } from "ioredis";
import { configSchema } from "../../app/.server/config";
import { openRedis, scanKeys } from "../../app/.server/queues/connection";

export function redisUrl(): string {
  return process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
}

/** Whether the file runs on a Redis Cluster (the `cluster` project sets REDIS_CLUSTER: cluster-env.ts). */
export function redisCluster(): boolean {
  return configSchema.shape.REDIS_CLUSTER.parse(process.env.REDIS_CLUSTER);
}

/**
 * A connection of a test's own to the Redis the file runs on: one Redis, or the cluster of the
 * `cluster` project, through the app's own factory. The caller disconnects it.
 */
export function testRedis(options: RedisOptions = {}): Redis {
  return openRedis({ url: redisUrl(), cluster: redisCluster() }, options);
}

/** A key prefix no other test file (or developer) uses on the shared Redis. */
export function uniquePrefix(label: string): string {
  return `test-${label}-${randomBytes(4).toString("hex")}`;
}

/** Deletes every key under a prefix (BullMQ's and ours), on every node of a cluster. */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = testRedis({ maxRetriesPerRequest: 3 });
  try {
    const keys = await scanKeys(redis, `${prefix}*`);
    // One key per command: a cluster refuses a DEL of keys in several slots.
    if (redisCluster()) await Promise.all(keys.map((key) => redis.unlink(key)));
    else for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
  } finally {
    redis.disconnect();
  }
}
