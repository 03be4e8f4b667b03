import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { createRedis, ready, type RedisRole } from "./connection";
import { jobOptions } from "./job-options";
import { queuePrefix } from "./keyspace";
import { allQueueNames, type QueueName } from "./names";

export interface Queues {
  /** REDIS_PREFIX: the app's own keys start with it (BullMQ's with `queuePrefix` of it). */
  readonly prefix: string;
  readonly redis: Redis;
  get(name: QueueName): Queue;
  /** Resolves when the shared connection is ready; producers call it before the first add. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The queues of one process over one Redis connection. `prefix` keeps deployments and test files
 * apart on a shared Redis (every BullMQ key starts with it).
 */
export function createQueues(options: {
  redisUrl: string;
  /** REDIS_CLUSTER: `redisUrl` names a cluster's seed nodes. */
  cluster: boolean;
  prefix: string;
  role: RedisRole;
  /** First retry delay of the exponential backoff (JOB_BACKOFF_MS). */
  backoffMs?: number;
  onError?: (e: Error) => void;
}): Queues {
  const defaultJobOptions = jobOptions(options.backoffMs);
  const redis = createRedis({ url: options.redisUrl, cluster: options.cluster }, options.role, options.onError);
  const keyspace = { REDIS_PREFIX: options.prefix, REDIS_CLUSTER: options.cluster };
  const queues = new Map<QueueName, Queue>();
  return {
    prefix: options.prefix,
    redis,
    get(name) {
      let queue = queues.get(name);
      if (!queue) {
        queue = new Queue(name, { connection: redis, prefix: queuePrefix(keyspace, name), defaultJobOptions });
        queue.on("error", (e) => options.onError?.(e));
        queues.set(name, queue);
      }
      return queue;
    },
    ready: (timeoutMs) => ready(redis, timeoutMs),
    async close() {
      await Promise.allSettled([...queues.values()].map((q) => q.close()));
      redis.disconnect();
    },
  };
}

export { allQueueNames };
