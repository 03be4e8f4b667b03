// Redis and BullMQ plumbing: connections, queues, key space, locks, heartbeats.
// Other folders import from here only; the rest of the folder is private to it.
export { createRedis, ready, scanKeys } from "./connection";
export { WEBHOOK_DEDUPE_TTL_MS } from "./job-options";
export { keyspaceOf, queuePrefix, shopTag, untagged } from "./keyspace";
export type { Keyspace } from "./keyspace";
export { QueueName, allQueueNames, jobIdPart } from "./names";
export { createQueues } from "./queues";
export type { Queues } from "./queues";
export { withRenewedLock } from "./renewed-lock";
export type { ConfirmHeld } from "./renewed-lock";
export { lastHeartbeat, startHeartbeat } from "./worker-heartbeat";
