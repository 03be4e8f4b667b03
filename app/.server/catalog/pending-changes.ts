import type { Redis } from "ioredis";
import type { CatalogProduct } from "../reviews";

// Coalescing of live catalog changes, per shop, in Redis:
// - `pending`: sku → newest mapped product (JSON). A product changed ten times in the window is
//   sent once, with its newest state (the mapper always produces the whole product, so the newest
//   state replaces the older ones; variants accumulate upstream anyway).
// - `inflight`: the batch being sent. It is taken from `pending` atomically and deleted only after
//   the service accepted it, so a worker killed mid-batch leaves it for the next flush: nothing is
//   lost, and resending it is harmless (the batch endpoint is idempotent).
// - `accepted`: productId → hash of the payload the service last accepted, a copy of the product
//   mirror's column kept beside the pending changes so that the skip-unchanged check and the staging
//   are one atomic step without a database read (a storm of inventory updates costs one Redis call
//   each). The mirror stays the truth: a product missing here is read from it once.

export interface StagedProduct {
  productId: string;
  sku: string;
  hash: string;
  product: CatalogProduct;
}

/** What staging did: skipped as already accepted, staged, or needs the mirror's hash first. */
export type StageOutcome = { kind: "unchanged" } | { kind: "staged"; waitingSince: number } | { kind: "unknown" };

/** The mirror's answer for a product never accepted (so it is not read again). */
export const NEVER_ACCEPTED = "-";

export interface PendingChanges {
  /** Stages a change; returns when the oldest change now waiting was staged (epoch ms). */
  stage(shopId: string, item: StagedProduct): Promise<number>;
  /**
   * Stages a change unless the service already holds exactly this payload and none other is on its
   * way. A waiting change of the product is then dropped: the store went back to what was accepted.
   */
  stageIfChanged(shopId: string, item: StagedProduct): Promise<StageOutcome>;
  /** Copies accepted hashes from the mirror (NEVER_ACCEPTED when none); `onlyIfAbsent` for a cold read. */
  rememberAccepted(shopId: string, hashes: Map<string, string>, onlyIfAbsent?: boolean): Promise<void>;
  /** The in-flight batch, taking up to `max` pending items first when none is in flight. */
  take(shopId: string, max: number): Promise<StagedProduct[]>;
  /** The newest version of a product not yet accepted by the service: pending, else in flight. */
  staged(shopId: string, sku: string): Promise<StagedProduct | null>;
  /** The service accepted (or permanently refused) the in-flight batch. */
  ack(shopId: string): Promise<void>;
  pendingCount(shopId: string): Promise<number>;
  /** When the oldest waiting change and the newest one were staged, and whether a batch is in flight. */
  timing(shopId: string): Promise<{ waiting: number; waitingSince: number | null; lastStagedAt: number | null; inflight: boolean }>;
  clear(shopId: string): Promise<void>;
}

// Moves the ARGV[1] oldest waiting changes from pending to inflight unless something is already in
// flight; a newer pending value of a SKU that is in flight stays pending and is sent next time.
// Pending SKUs missing from the waiting order (written by a release that kept none) are taken too,
// once the ordered ones are gone, so none can be stranded.
const TAKE = `
if redis.call('EXISTS', KEYS[2]) == 0 then
  local max = tonumber(ARGV[1])
  local keys = redis.call('ZRANGE', KEYS[3], 0, max - 1)
  local moved = 0
  for i = 1, #keys do
    local v = redis.call('HGET', KEYS[1], keys[i])
    if v then
      redis.call('HSET', KEYS[2], keys[i], v)
      redis.call('HDEL', KEYS[1], keys[i])
      moved = moved + 1
    end
    redis.call('ZREM', KEYS[3], keys[i])
  end
  if moved < max and redis.call('ZCARD', KEYS[3]) == 0 then
    local rest = redis.call('HSCAN', KEYS[1], 0, 'COUNT', max - moved)[2]
    for i = 1, #rest, 2 do
      if moved < max then
        redis.call('HSET', KEYS[2], rest[i], rest[i + 1])
        redis.call('HDEL', KEYS[1], rest[i])
        moved = moved + 1
      end
    end
  end
end
return redis.call('HVALS', KEYS[2])
`;

// KEYS: accepted, pending, inflight, last-staged, pending order. ARGV: productId, sku, hash, item, now.
// Staged: returns when the oldest change now waiting was staged (the head of the waiting order).
const STAGE_IF_CHANGED = `
local accepted = redis.call('HGET', KEYS[1], ARGV[1])
if not accepted then return {'unknown'} end
if accepted == ARGV[3] then
  local flying = redis.call('HGET', KEYS[3], ARGV[2])
  if not flying or cjson.decode(flying).hash == ARGV[3] then
    redis.call('HDEL', KEYS[2], ARGV[2])
    redis.call('ZREM', KEYS[5], ARGV[2])
    return {'unchanged'}
  end
end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[4])
redis.call('ZADD', KEYS[5], 'NX', ARGV[5], ARGV[2])
redis.call('SET', KEYS[4], ARGV[5])
return {'staged', redis.call('ZRANGE', KEYS[5], 0, 0, 'WITHSCORES')[2]}
`;

// A shop's accepted hashes are kept for a week after the last write; a cold shop reads its mirror.
const ACCEPTED_TTL_MS = 7 * 24 * 3600 * 1000;

export function createPendingChanges(redis: Redis, prefix: string): PendingChanges {
  const pendingKey = (shopId: string) => `${prefix}:catalog:pending:${shopId}`;
  const inflightKey = (shopId: string) => `${prefix}:catalog:inflight:${shopId}`;
  const lastKey = (shopId: string) => `${prefix}:catalog:last-staged:${shopId}`;
  const acceptedKey = (shopId: string) => `${prefix}:catalog:accepted:${shopId}`;
  // When each waiting SKU started waiting (a newer change of a waiting SKU keeps its place): batches
  // take the oldest first, so no change is passed over flush after flush while newer ones leave (a
  // hash has no order), and the head says when the oldest waiting change is due.
  const orderKey = (shopId: string) => `${prefix}:catalog:pending-order:${shopId}`;
  return {
    async stageIfChanged(shopId, item) {
      const keys = [acceptedKey(shopId), pendingKey(shopId), inflightKey(shopId), lastKey(shopId), orderKey(shopId)];
      const [kind, since] = (await redis.eval(STAGE_IF_CHANGED, keys.length, ...keys, item.productId, item.sku, item.hash, JSON.stringify(item), String(Date.now()))) as [
        string,
        string | undefined,
      ];
      if (kind === "staged") return { kind, waitingSince: Number(since) };
      return kind === "unchanged" ? { kind } : { kind: "unknown" };
    },
    async rememberAccepted(shopId, hashes, onlyIfAbsent = false) {
      if (!hashes.size) return;
      const tx = redis.multi();
      for (const [productId, hash] of hashes) {
        if (onlyIfAbsent) tx.hsetnx(acceptedKey(shopId), productId, hash);
        else tx.hset(acceptedKey(shopId), productId, hash);
      }
      await tx.pexpire(acceptedKey(shopId), ACCEPTED_TTL_MS).exec();
    },
    async stage(shopId, item) {
      const now = Date.now();
      const [, , , [, head]] = (await redis
        .multi()
        .hset(pendingKey(shopId), item.sku, JSON.stringify(item))
        .zadd(orderKey(shopId), "NX", now, item.sku)
        .set(lastKey(shopId), String(now))
        .zrange(orderKey(shopId), "0", "0", "WITHSCORES")
        .exec()) as [unknown, unknown, unknown, [unknown, string[]]];
      return Number(head[1] ?? now);
    },
    async take(shopId, max) {
      // What is left keeps its place and its waiting time: it is due when its own wait ends.
      const values = (await redis.eval(TAKE, 3, pendingKey(shopId), inflightKey(shopId), orderKey(shopId), String(max))) as string[];
      return values.map((v) => JSON.parse(v) as StagedProduct);
    },
    async staged(shopId, sku) {
      const [[, pending], [, inflight]] = (await redis.multi().hget(pendingKey(shopId), sku).hget(inflightKey(shopId), sku).exec()) as [
        [unknown, string | null],
        [unknown, string | null],
      ];
      const value = pending ?? inflight;
      return value ? (JSON.parse(value) as StagedProduct) : null;
    },
    async ack(shopId) {
      await redis.del(inflightKey(shopId));
    },
    async pendingCount(shopId) {
      return (await redis.hlen(pendingKey(shopId))) + (await redis.hlen(inflightKey(shopId)));
    },
    async timing(shopId) {
      const [waiting, inflight, head, last] = (await redis
        .multi()
        .hlen(pendingKey(shopId))
        .exists(inflightKey(shopId))
        .zrange(orderKey(shopId), "0", "0", "WITHSCORES")
        .get(lastKey(shopId))
        .exec())!.map(([, v]) => v) as [number, number, string[], string | null];
      // Pending SKUs outside the waiting order (an older release's) count from the newest change.
      const since = head.length ? Number(head[1]) : waiting && last ? Number(last) : null;
      return { waiting, inflight: inflight === 1, waitingSince: since, lastStagedAt: last ? Number(last) : null };
    },
    async clear(shopId) {
      await redis.del(pendingKey(shopId), inflightKey(shopId), lastKey(shopId), acceptedKey(shopId), orderKey(shopId));
    },
  };
}
