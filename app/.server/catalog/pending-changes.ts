import type { Redis } from "ioredis";
import type { CatalogProduct } from "../reviews";
import { mergeCatalogProducts, type CategorySource } from "../mapping";
import { scanKeys, keyspaceOf, shopTag, untagged, type Keyspace } from "../queues";
import { stagedVersion, storedVersion } from "./superseded";

// Coalescing of live catalog changes, per shop, in Redis:
// - `pending`: sku → the product to send (JSON). A product changed ten times in the window is sent
//   once, merged the way the service merges repeated SKUs of a batch (fields of the newer version
//   win, fields only the older one has stay, variants are united), so coalescing never sends less
//   than the changes one by one would have: a variant added and removed inside the window is
//   still announced, as it would have been.
// - `inflight`: the batch being sent. It is taken from `pending` atomically and deleted only after
//   the service accepted it, so a worker killed mid-batch leaves it for the next flush: nothing is
//   lost, and resending it is harmless (the batch endpoint is idempotent).
// - `accepted`: productId → hash of the payload the service last accepted, a copy of the product
//   mirror's column kept beside the pending changes so that the skip-unchanged check and the staging
//   are one atomic step without a database read (a storm of inventory updates costs one Redis call
//   each). The mirror stays the truth: a product missing here is read from it once.
// - `newest`: productId → the version (mapping/change-version.ts) of the newest change staged or
//   accepted. Webhooks come out of order (32 at a time, retries, Shopify resending a failed delivery
//   hours later with its original payload) and a bulk snapshot can predate a live change: an older
//   version is never staged or sent over a newer one.

export interface StagedProduct {
  productId: string;
  sku: string;
  hash: string;
  product: CatalogProduct;
  /** Shopify's updatedAt of the product version this payload maps (epoch ms); unknown: undefined. */
  sourceUpdatedAt?: number;
  /** The change's version (mapping/change-version.ts); unknown: undefined (never taken for an old one). */
  version?: string;
  /** Where the categories came from (kept in the mirror for the live path). */
  categoriesFrom?: CategorySource;
}

/**
 * What staging did: skipped as already accepted, skipped as older than a version already staged or
 * accepted, staged, or needs the mirror's hash first.
 */
export type StageOutcome =
  { kind: "unchanged" } | { kind: "stale" } | { kind: "staged"; waitingSince: number } | { kind: "unknown" };

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
  /** Raises the newest known version of products (productId → version). */
  rememberNewest(shopId: string, versions: Map<string, string>): Promise<void>;
  /** The newest known version of these products (productId → version; absent when unknown). */
  newest(shopId: string, productIds: string[]): Promise<Map<string, string>>;
  /** The in-flight batch, taking up to `max` pending items first when none is in flight. */
  take(shopId: string, max: number): Promise<StagedProduct[]>;
  /** The newest version of a product not yet accepted by the service: pending, else in flight. */
  staged(shopId: string, sku: string): Promise<StagedProduct | null>;
  /** The service accepted (or permanently refused) the in-flight batch. */
  ack(shopId: string): Promise<void>;
  pendingCount(shopId: string): Promise<number>;
  /**
   * The shops with changes waiting or in flight, from the set of shops that staged any (those found
   * with none left are taken out of it): never a walk over Redis's keyspace.
   */
  shopsWithChanges(): Promise<string[]>;
  /**
   * Adds the shops whose changes were staged before the set existed (a walk over the keyspace: once,
   * when a worker starts, not on a timer). Returns how many it found.
   */
  registerStagedBefore(): Promise<number>;
  /** When the oldest waiting change and the newest one were staged, and whether a batch is in flight. */
  timing(
    shopId: string,
  ): Promise<{ waiting: number; waitingSince: number | null; lastStagedAt: number | null; inflight: boolean }>;
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

// A newest version as stored: a release before versions kept epoch ms, read as that instant with no
// delivery (change-version.ts legacyVersion), so string order compares it with today's versions.
const VERSION_OF = `
local function versionOf(v)
  if not v or string.find(v, ':', 1, true) then return v end
  local ms = tonumber(v)
  if not ms then return nil end
  return string.format('%012d%03d000000:%s:', math.floor(ms / 1000), ms % 1000, string.rep('0', 21))
end
`;

// Sets each field to the larger of its version and the given one. KEYS: hash. ARGV: ttl, field, version, ...
const RAISE = `${VERSION_OF}
for i = 2, #ARGV - 1, 2 do
  local current = versionOf(redis.call('HGET', KEYS[1], ARGV[i]))
  if not current or ARGV[i + 1] > current then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

// KEYS: accepted, pending, inflight, last-staged, pending order, newest.
// ARGV: productId, sku, hash, item, now, version ('' when unknown), newest's ttl, hash of
// the waiting change the item was merged with ('' when none).
// Staged: returns when the oldest change now waiting was staged (the head of the waiting order).
// Merge: another change of the product waits and the item was not merged with it: the caller merges
// and calls again (the merge rule lives in TypeScript, beside the mapper).
const STAGE_IF_CHANGED = `${VERSION_OF}
local accepted = redis.call('HGET', KEYS[1], ARGV[1])
if not accepted then return {'unknown'} end
local version = ARGV[6]
if version ~= '' then
  local newest = versionOf(redis.call('HGET', KEYS[6], ARGV[1]))
  -- Versions are a total order: equal is the same change delivered again (its state is the same).
  if newest and version < newest then return {'stale'} end
  redis.call('HSET', KEYS[6], ARGV[1], ARGV[6])
  redis.call('PEXPIRE', KEYS[6], ARGV[7])
end
if accepted == ARGV[3] then
  local flying = redis.call('HGET', KEYS[3], ARGV[2])
  if not flying or cjson.decode(flying).hash == ARGV[3] then
    redis.call('HDEL', KEYS[2], ARGV[2])
    redis.call('ZREM', KEYS[5], ARGV[2])
    return {'unchanged'}
  end
end
local waiting = redis.call('HGET', KEYS[2], ARGV[2])
local waitingHash = waiting and cjson.decode(waiting).hash
-- The same state again: the waiting change already carries all of it.
if waitingHash ~= ARGV[3] then
  if waiting and waitingHash ~= ARGV[8] then return {'merge', waiting} end
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[4])
end
redis.call('ZADD', KEYS[5], 'NX', ARGV[5], ARGV[2])
redis.call('SET', KEYS[4], ARGV[5])
return {'staged', redis.call('ZRANGE', KEYS[5], 0, 0, 'WITHSCORES')[2]}
`;

// A shop's accepted hashes are kept for a week after the last write; a cold shop reads its mirror.
const ACCEPTED_TTL_MS = 7 * 24 * 3600 * 1000;

/** Shops read per round trip when the sweep checks which still have changes. */
const CHECK_AT_ONCE = 500;

/**
 * The names of the pending changes' keys. A shop's keys are written together (scripts, MULTI), so
 * on a Redis Cluster they carry the shop's tag and share its slot; one Redis keeps the plain names.
 */
export function pendingChangesKeys(keyspace: Keyspace) {
  const prefix = keyspace.REDIS_PREFIX;
  const ofShop = (kind: string) => (shopId: string) => `${prefix}:catalog:${kind}:${shopTag(keyspace, shopId)}`;
  return {
    // Every shop that staged a change since its last sweep found it with none left. A key of its
    // own (single-key commands only), so it may live in any slot of a Redis Cluster.
    shops: `${prefix}:catalog:shops-with-changes`,
    pending: ofShop("pending"),
    inflight: ofShop("inflight"),
    last: ofShop("last-staged"),
    accepted: ofShop("accepted"),
    newest: ofShop("newest"),
    // When each waiting SKU started waiting (a newer change of a waiting SKU keeps its place):
    // batches take the oldest first, so no change is passed over flush after flush while newer ones
    // leave (a hash has no order), and the head says when the oldest waiting change is due.
    order: ofShop("pending-order"),
  };
}

export function createPendingChanges(redis: Redis, prefix: string): PendingChanges {
  const {
    shops: shopsKey,
    pending: pendingKey,
    inflight: inflightKey,
    last: lastKey,
    accepted: acceptedKey,
    newest: newestKey,
    order: orderKey,
  } = pendingChangesKeys(keyspaceOf(redis, prefix));
  /** For each shop, whether it has changes waiting or a batch in flight. */
  async function changesLeft(shopIds: string[]): Promise<boolean[]> {
    // A pipeline of one cluster client may only name keys of one slot: a shop's pair each, sent
    // together all the same. One Redis takes the whole page in one pipeline.
    const pages = redis.isCluster ? shopIds.map((id) => [id]) : [shopIds];
    const counts = await Promise.all(
      pages.map(async (page) => {
        const tx = redis.pipeline();
        for (const id of page) tx.hlen(pendingKey(id)).exists(inflightKey(id));
        return ((await tx.exec()) ?? []).map(([, v]) => Number(v));
      }),
    );
    const flat = counts.flat();
    return shopIds.map((_, k) => flat[2 * k] + flat[2 * k + 1] > 0);
  }
  return {
    async stageIfChanged(shopId, item) {
      const keys = [
        acceptedKey(shopId),
        pendingKey(shopId),
        inflightKey(shopId),
        lastKey(shopId),
        orderKey(shopId),
        newestKey(shopId),
      ];
      const version = stagedVersion(item) ?? "";
      let staging = item;
      let mergedWith = "";
      // Another worker may stage the same product between the merge and the write: merged again.
      for (let attempt = 0; attempt < 10; attempt++) {
        const args = [
          item.productId,
          item.sku,
          item.hash,
          JSON.stringify(staging),
          String(Date.now()),
          version,
          String(ACCEPTED_TTL_MS),
          mergedWith,
        ];
        const [kind, detail] = (await redis.eval(STAGE_IF_CHANGED, keys.length, ...keys, ...args)) as [
          string,
          string | undefined,
        ];
        if (kind === "staged") {
          await redis.sadd(shopsKey, shopId);
          return { kind, waitingSince: Number(detail) };
        }
        if (kind === "unchanged" || kind === "stale") return { kind };
        if (kind === "unknown") return { kind };
        const waiting = JSON.parse(detail!) as StagedProduct;
        // The hash stays the newer state's own: it is what the next change is compared with.
        staging = { ...item, product: mergeCatalogProducts(waiting.product, item.product) };
        mergedWith = waiting.hash;
      }
      throw new Error(`product ${item.productId} changed too often at once to be staged`);
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
    async rememberNewest(shopId, versions) {
      if (!versions.size) return;
      await redis.eval(
        RAISE,
        1,
        newestKey(shopId),
        String(ACCEPTED_TTL_MS),
        ...[...versions].flatMap(([id, version]) => [id, version]),
      );
    },
    async newest(shopId, productIds) {
      const map = new Map<string, string>();
      if (!productIds.length) return map;
      const values = await redis.hmget(newestKey(shopId), ...productIds);
      productIds.forEach((id, i) => {
        const version = values[i] === null ? undefined : storedVersion(values[i]);
        if (version) map.set(id, version);
      });
      return map;
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
      await redis.sadd(shopsKey, shopId);
      return Number(head[1] ?? now);
    },
    async take(shopId, max) {
      // What is left keeps its place and its waiting time: it is due when its own wait ends.
      const values = (await redis.eval(
        TAKE,
        3,
        pendingKey(shopId),
        inflightKey(shopId),
        orderKey(shopId),
        String(max),
      )) as string[];
      return values.map((v) => JSON.parse(v) as StagedProduct);
    },
    async staged(shopId, sku) {
      const [[, pending], [, inflight]] = (await redis
        .multi()
        .hget(pendingKey(shopId), sku)
        .hget(inflightKey(shopId), sku)
        .exec()) as [[unknown, string | null], [unknown, string | null]];
      const value = pending ?? inflight;
      return value ? (JSON.parse(value) as StagedProduct) : null;
    },
    async ack(shopId) {
      await redis.del(inflightKey(shopId));
    },
    async shopsWithChanges() {
      const registered = await redis.smembers(shopsKey);
      const out: string[] = [];
      for (let i = 0; i < registered.length; i += CHECK_AT_ONCE) {
        const page = registered.slice(i, i + CHECK_AT_ONCE);
        const left = await changesLeft(page);
        const done = page.filter((_, k) => !left[k]);
        out.push(...page.filter((_, k) => left[k]));
        if (!done.length) continue;
        await redis.srem(shopsKey, ...done);
        // A change staged between the check and the removal keeps its shop in the set.
        const again = await changesLeft(done);
        const back = done.filter((_, k) => again[k]);
        if (back.length) {
          await redis.sadd(shopsKey, ...back);
          out.push(...back);
        }
      }
      return out;
    },
    async registerStagedBefore() {
      const shops = new Set<string>();
      for (const kind of ["pending", "inflight"]) {
        // The prefix is the operator's: glob characters in it are matched literally.
        const pattern = `${prefix.replace(/[*?[\]\\]/g, "\\$&")}:catalog:${kind}:*`;
        for (const key of await scanKeys(redis, pattern)) shops.add(untagged(key.slice(key.lastIndexOf(":") + 1)));
      }
      if (shops.size) await redis.sadd(shopsKey, ...shops);
      return shops.size;
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
      await redis.srem(shopsKey, shopId);
      await redis.del(
        pendingKey(shopId),
        inflightKey(shopId),
        lastKey(shopId),
        acceptedKey(shopId),
        orderKey(shopId),
        newestKey(shopId),
      );
    },
  };
}
