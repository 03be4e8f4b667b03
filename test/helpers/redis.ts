import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export function redisUrl(): string {
  return process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
}

/** A key prefix no other test file (or developer) uses on the shared Redis. */
export function uniquePrefix(label: string): string {
  return `test-${label}-${randomBytes(4).toString("hex")}`;
}

/** Deletes every key under a prefix (BullMQ's and ours). */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl(), { maxRetriesPerRequest: 3 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
