import type { Redis } from "ioredis";
import type { CatalogProduct } from "../reviews";

// Coalescing of live catalog changes, per shop, in Redis:
// - `pending`: sku → newest mapped product (JSON). A product changed ten times in the window is
//   sent once, with its newest state (the mapper always produces the whole product, so the newest
//   state replaces the older ones; variants accumulate upstream anyway).
// - `inflight`: the batch being sent. It is taken from `pending` atomically and deleted only after
//   the service accepted it, so a worker killed mid-batch leaves it for the next flush: nothing is
//   lost, and resending it is harmless (the batch endpoint is idempotent).

export interface StagedProduct {
  productId: string;
  sku: string;
  hash: string;
  product: CatalogProduct;
}

export interface PendingChanges {
  /** Stages a change; returns when the oldest change now waiting was staged (epoch ms). */
  stage(shopId: string, item: StagedProduct): Promise<number>;
  /** The in-flight batch, taking up to `max` pending items first when none is in flight. */
  take(shopId: string, max: number): Promise<StagedProduct[]>;
  /** The service accepted (or permanently refused) the in-flight batch. */
  ack(shopId: string): Promise<void>;
  /** Puts items of the in-flight batch back to pending (when a batch is split across flushes). */
  requeue(shopId: string, items: StagedProduct[]): Promise<void>;
  pendingCount(shopId: string): Promise<number>;
  /** When the oldest waiting change and the newest one were staged, and whether a batch is in flight. */
  timing(shopId: string): Promise<{ waiting: number; waitingSince: number | null; lastStagedAt: number | null; inflight: boolean }>;
  clear(shopId: string): Promise<void>;
}

// Moves up to ARGV[1] fields from pending to inflight unless something is already in flight;
// a newer pending value of a SKU that is in flight stays pending and is sent next time.
const TAKE = `
if redis.call('EXISTS', KEYS[2]) == 0 then
  local keys = redis.call('HKEYS', KEYS[1])
  local n = math.min(#keys, tonumber(ARGV[1]))
  for i = 1, n do
    local v = redis.call('HGET', KEYS[1], keys[i])
    redis.call('HSET', KEYS[2], keys[i], v)
    redis.call('HDEL', KEYS[1], keys[i])
  end
end
return redis.call('HVALS', KEYS[2])
`;

// Puts items back to pending unless a newer value for the same SKU arrived meanwhile.
const REQUEUE = `
for i = 1, #ARGV, 2 do
  redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('HDEL', KEYS[2], ARGV[i])
end
return 1
`;

export function createPendingChanges(redis: Redis, prefix: string): PendingChanges {
  const pendingKey = (shopId: string) => `${prefix}:catalog:pending:${shopId}`;
  const inflightKey = (shopId: string) => `${prefix}:catalog:inflight:${shopId}`;
  const sinceKey = (shopId: string) => `${prefix}:catalog:waiting-since:${shopId}`;
  const lastKey = (shopId: string) => `${prefix}:catalog:last-staged:${shopId}`;
  return {
    async stage(shopId, item) {
      const now = Date.now();
      const [, [, since]] = (await redis
        .multi()
        .hset(pendingKey(shopId), item.sku, JSON.stringify(item))
        .set(sinceKey(shopId), String(now), "NX", "GET")
        .set(lastKey(shopId), String(now))
        .exec()) as [unknown, [unknown, string | null], unknown];
      return since ? Number(since) : now;
    },
    async take(shopId, max) {
      const values = (await redis.eval(TAKE, 2, pendingKey(shopId), inflightKey(shopId), String(max))) as string[];
      // What is left pending starts a new wait from now.
      if ((await redis.hlen(pendingKey(shopId))) === 0) await redis.del(sinceKey(shopId));
      else await redis.set(sinceKey(shopId), String(Date.now()));
      return values.map((v) => JSON.parse(v) as StagedProduct);
    },
    async ack(shopId) {
      await redis.del(inflightKey(shopId));
    },
    async requeue(shopId, items) {
      if (!items.length) return;
      await redis.eval(REQUEUE, 2, pendingKey(shopId), inflightKey(shopId), ...items.flatMap((i) => [i.sku, JSON.stringify(i)]));
    },
    async pendingCount(shopId) {
      return (await redis.hlen(pendingKey(shopId))) + (await redis.hlen(inflightKey(shopId)));
    },
    async timing(shopId) {
      const [waiting, inflight, since, last] = (await redis
        .multi()
        .hlen(pendingKey(shopId))
        .exists(inflightKey(shopId))
        .get(sinceKey(shopId))
        .get(lastKey(shopId))
        .exec())!.map(([, v]) => v) as [number, number, string | null, string | null];
      return { waiting, inflight: inflight === 1, waitingSince: since ? Number(since) : null, lastStagedAt: last ? Number(last) : null };
    },
    async clear(shopId) {
      await redis.del(pendingKey(shopId), inflightKey(shopId), sinceKey(shopId), lastKey(shopId));
    },
  };
}
