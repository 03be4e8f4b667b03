import type { Redis } from "ioredis";
import { keyspaceOf, shopTag } from "../queues";

// Which shops Shopify currently refuses this server's address for (the app's IP allowlist), kept in
// Redis so that every process (web, workers, CLI) sees one answer:
// - `<prefix>:address-refused:<shop>`: a hash with since, Shopify's body (detail), the probes made
//   and when the next one is due;
// - `<prefix>:address-refused`: the set of refused shops (the metric and `cli status`);
// - `<prefix>:address-refused:parked:<shop>`: the jobs parked while refused (queue and job id),
//   handed back to their queues when a probe passes.
// Losing it costs little: the next call is refused again and the state comes back.
//
// A shop's two keys are written together and share its tag on a Redis Cluster (keyspace.ts). The
// set lives in another slot, so it is written in a step of its own, after the shop's keys: between
// the two it may miss a shop just refused, or name one just cleared, which `get` reads as not
// refused. Only the metric and `cli status` read the set.

export interface AddressRefusal {
  shop: string;
  since: Date;
  /** Shopify's body of the last refusal, cut short (admin-graphql.ts). */
  detail: string;
  probes: number;
  nextProbeAt: Date | null;
  lastProbeAt: Date | null;
}

export interface ParkedJob {
  queue: string;
  jobId: string;
}

const date = (v: string | undefined) => (v ? new Date(Number(v)) : null);

export function createAddressRefusals(redis: Redis, prefix: string) {
  const keyspace = keyspaceOf(redis, prefix);
  const setKey = `${prefix}:address-refused`;
  const key = (shop: string) => `${setKey}:${shopTag(keyspace, shop)}`;
  const parkedKey = (shop: string) => `${setKey}:parked:${shopTag(keyspace, shop)}`;

  return {
    async get(shop: string): Promise<AddressRefusal | null> {
      const h = await redis.hgetall(key(shop));
      if (!h.since) return null;
      return {
        shop,
        since: new Date(Number(h.since)),
        detail: h.detail ?? "",
        probes: Number(h.probes ?? 0),
        nextProbeAt: date(h.nextProbeAt),
        lastProbeAt: date(h.lastProbeAt),
      };
    },
    /** Records a refusal; `first` is true for the call that moved the shop into the state. */
    async refuse(shop: string, detail: string, now = new Date()): Promise<{ first: boolean }> {
      const res = await redis
        .multi()
        .hsetnx(key(shop), "since", String(now.getTime()))
        .hset(key(shop), "detail", detail)
        .exec();
      await redis.sadd(setKey, shop);
      return { first: res?.[0]?.[1] === 1 };
    },
    /** A probe did not pass: counted, with when it ran and when the next one is due, in one step. */
    async probed(shop: string, nextProbeAt: Date, now = new Date()): Promise<number> {
      const res = await redis
        .multi()
        .hincrby(key(shop), "probes", 1)
        .hset(key(shop), "lastProbeAt", String(now.getTime()), "nextProbeAt", String(nextProbeAt.getTime()))
        .exec();
      return Number(res?.[0]?.[1] ?? 0);
    },
    async scheduled(shop: string, nextProbeAt: Date): Promise<void> {
      await redis.hset(key(shop), "nextProbeAt", String(nextProbeAt.getTime()));
    },
    /** Calls pass again: the state goes, and the parked jobs are handed over to be resumed. */
    async clear(shop: string): Promise<ParkedJob[]> {
      const res = await redis.multi().smembers(parkedKey(shop)).del(parkedKey(shop), key(shop)).exec();
      await redis.srem(setKey, shop);
      const members = (res?.[0]?.[1] as string[] | undefined) ?? [];
      return members.map((m) => JSON.parse(m) as ParkedJob);
    },
    async park(shop: string, job: ParkedJob): Promise<void> {
      await redis.sadd(parkedKey(shop), JSON.stringify({ queue: job.queue, jobId: job.jobId }));
    },
    async parkedCount(shop: string): Promise<number> {
      return redis.scard(parkedKey(shop));
    },
    async refusedShops(): Promise<string[]> {
      return (await redis.smembers(setKey)).sort();
    },
  };
}

export type AddressRefusals = ReturnType<typeof createAddressRefusals>;
