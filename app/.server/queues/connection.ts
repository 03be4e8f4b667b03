import { Cluster, Redis, type RedisOptions } from "ioredis";

// Who holds a Redis connection decides how it behaves when Redis is away:
// - "worker": blocking commands and reconnects forever (BullMQ requires maxRetriesPerRequest null);
// - "producer": used inside web requests; fails fast so a webhook is never acknowledged unless its
//   job was stored (no offline queue, one try per command, short connect timeout).
export type RedisRole = "worker" | "producer";

/** Where Redis is: REDIS_URL, and REDIS_CLUSTER saying whether it names a cluster's seed nodes. */
export interface RedisTarget {
  url: string;
  cluster: boolean;
}

export function redisOptions(role: RedisRole): RedisOptions {
  const base: RedisOptions = {
    // Reconnect forever with a capped delay: Redis restarts must heal without a process restart.
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  };
  if (role === "worker") return { ...base, maxRetriesPerRequest: null, enableReadyCheck: true };
  return { ...base, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, commandTimeout: 2000 };
}

/** Every connection of the app (and of its tests) is made here, to one Redis or to a cluster. */
export function openRedis(target: RedisTarget, options: RedisOptions = {}): Redis {
  if (!target.cluster) return new Redis(target.url, options);
  // The options of a node's connection, less those a cluster client takes for itself (how it
  // reconnects, whether it queues commands while no node answers) and an address, which would point
  // every node's connection at one node.
  const {
    retryStrategy,
    enableOfflineQueue,
    lazyConnect,
    enableReadyCheck,
    host: _h,
    port: _p,
    path: _s,
    ...node
  } = options;
  const cluster = new Cluster(seedNodes(target.url), {
    redisOptions: { ...node, ...credentials(target.url) },
    clusterRetryStrategy: retryStrategy,
    // A master restarted in place (no failover, the same slots) is reconnected to, as one Redis is.
    clusterNodeRetryStrategy: retryStrategy ?? undefined,
    enableOfflineQueue,
    lazyConnect,
    enableReadyCheck,
  });
  // The one cast of the app's connections: the code types them as a single Redis, and a Cluster
  // answers the same commands, sent to the node of each key's slot. What differs is the keys one
  // command may touch together (keyspace.ts) and the commands that walk the keyspace (scanKeys).
  return cluster as unknown as Redis;
}

export function createRedis(target: RedisTarget, role: RedisRole, onError?: (error: Error) => void): Redis {
  const redis = openRedis(target, redisOptions(role));
  // Without a listener ioredis prints every reconnect attempt as an unhandled error.
  redis.on("error", (error) => onError?.(error));
  return redis;
}

/** The connection as the cluster client it is, or null for one Redis (the other side of the cast). */
export function asCluster(redis: Redis): Cluster | null {
  return redis.isCluster ? (redis as unknown as Cluster) : null;
}

/** The connections that hold keys: the cluster's masters, or the one Redis. */
export function keyHolders(redis: Redis): Redis[] {
  return asCluster(redis)?.nodes("master") ?? [redis];
}

/**
 * Every key matching `pattern`, however many nodes hold them: SCAN walks one node's keys only, so
 * on a cluster it walks each master's.
 */
export async function scanKeys(redis: Redis, pattern: string, count = 1000): Promise<string[]> {
  // A cluster client knows its masters once it has read the slots: before, it would list none.
  if (redis.isCluster) await ready(redis, 30_000);
  const out: string[] = [];
  for (const node of keyHolders(redis)) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", count);
      out.push(...keys);
      cursor = next;
    } while (cursor !== "0");
  }
  return out;
}

/** Seed nodes of a comma-separated REDIS_URL, as host and port (the client finds the others). */
export function seedNodes(url: string): { host: string; port: number }[] {
  return url.split(",").map((one) => {
    const u = new URL(one.trim());
    return { host: u.hostname.replace(/^\[|\]$/g, ""), port: Number(u.port || 6379) };
  });
}

// Nodes found through the seeds are known by address only: the credentials (and TLS) of the seeds
// are given to every node's connection.
function credentials(url: string): RedisOptions {
  const u = new URL(url.split(",")[0]!.trim());
  return {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === "rediss:" ? { tls: {} } : {}),
  };
}

/** Resolves once the connection is ready (a producer with no offline queue must wait for it). */
export async function ready(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === "ready") return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off("ready", onReady);
    };
    redis.on("ready", onReady);
  });
}
