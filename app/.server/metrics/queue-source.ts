import { type Queues, allQueueNames, type QueueName } from "../queues";
import type { QueueSource } from "./metrics";

// Queue depth and the oldest waiting job, read from Redis when Prometheus scrapes (not kept).
export function queueSource(queues: Queues): QueueSource {
  return {
    names: allQueueNames,
    counts: (name) =>
      queues
        .get(name as QueueName)
        .getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children", "failed"),
    async oldestWaiting(name) {
      // Oldest first: the head of the waiting list.
      const [oldest] = await queues.get(name as QueueName).getJobs(["waiting"], 0, 0, true);
      return oldest?.timestamp ?? null;
    },
  };
}
