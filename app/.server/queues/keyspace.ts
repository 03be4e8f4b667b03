// How the app names its Redis keys, in one place, because a Redis Cluster decides where a key lives
// by its name: a command, MULTI, pipeline or script may only touch keys of one hash slot, and the
// slot is that of the name's hash tag (the part between the first `{` and the next `}`) when it has
// one, else of the whole name.
//
// - On one Redis nothing changes: the names are today's, so an upgrade finds the queued jobs and the
//   staged catalog changes where it left them.
// - On a cluster, BullMQ's keys of a queue carry the queue's name as their tag (BullMQ's scripts move
//   a job between several keys of its queue at once), and the keys that one operation writes
//   together for a shop carry the shop as theirs. A key only ever used alone needs no tag and may
//   land anywhere.
//
// REDIS_PREFIX admits no braces (config.ts), so it can never be taken for a tag itself.

export interface Keyspace {
  /** REDIS_PREFIX: keeps deployments (and test files) apart on one Redis. */
  readonly REDIS_PREFIX: string;
  readonly REDIS_CLUSTER: boolean;
}

/** BullMQ's `prefix` option for one queue: the same in every Queue, Worker and reader of it. */
export function queuePrefix(keyspace: Keyspace, queueName: string): string {
  return keyspace.REDIS_CLUSTER ? `${keyspace.REDIS_PREFIX}:{${queueName}}` : keyspace.REDIS_PREFIX;
}

/** The shop's part of a key name: `{shop}` on a cluster, so that its keys share a slot; else the shop. */
export function shopTag(keyspace: Pick<Keyspace, "REDIS_CLUSTER">, shop: string): string {
  return keyspace.REDIS_CLUSTER ? `{${shop}}` : shop;
}

/** The shop a tagged (or plain) last part of a key name stands for. */
export function untagged(part: string): string {
  return part.startsWith("{") && part.endsWith("}") ? part.slice(1, -1) : part;
}

/**
 * The keyspace of a module that is handed a connection and a prefix: the connection says whether it
 * is a cluster's, so such a module cannot tag its keys for one kind of Redis and run on the other.
 */
export function keyspaceOf(redis: { readonly isCluster: boolean }, prefix: string): Keyspace {
  return { REDIS_PREFIX: prefix, REDIS_CLUSTER: redis.isCluster };
}
