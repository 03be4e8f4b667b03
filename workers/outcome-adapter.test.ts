import { Queue, QueueEvents, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deletePrefix, redisUrl, uniquePrefix } from "../test/helpers/redis";
import { eventually } from "../test/helpers/contexts";
import { GiveUp, RetryLater } from "../app/.server/jobs/outcome";
import { runForJob } from "./outcome-adapter";

// A use case's outcome in BullMQ's terms, on a real queue in real Redis: "retry later" leaves the
// job delayed with no attempt spent, "give up" fails it at once whatever attempts it had left.

const prefix = uniquePrefix("outcome-adapter");
let connection: Redis;
let queue: Queue;
let events: QueueEvents;
let worker: Worker;
const said: Record<string, () => Promise<unknown>> = {
  later: async () => {
    throw new RetryLater("the service asked for a minute", 60_000);
  },
  never: async () => {
    throw new GiveUp("order 7 refused by the service: bad request");
  },
  fine: async () => ({ sent: 1 }),
};

beforeAll(async () => {
  connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  queue = new Queue("outcomes", { connection, prefix });
  events = new QueueEvents("outcomes", { connection: connection.duplicate(), prefix });
  await events.waitUntilReady();
  worker = new Worker("outcomes", (job: Job, token?: string) => runForJob(job, token, said[job.name]!), {
    connection: connection.duplicate(),
    prefix,
  });
});
afterAll(async () => {
  await worker?.close();
  await events?.close();
  await queue?.close();
  connection?.disconnect();
  await deletePrefix(prefix);
});

const opts = { attempts: 3, backoff: { type: "fixed", delay: 10 } };

describe("outcome adapter", () => {
  it("GIVEN the use case says retry later THEN the job waits delayed for that long, no attempt spent", async () => {
    const job = await queue.add("later", {}, opts);
    const state = await eventually(
      () => job.getState(),
      (s) => s === "delayed",
    );
    expect(state).toBe("delayed");
    const after = (await queue.getJob(job.id!))!;
    expect(after.attemptsMade).toBe(0);
    expect(after.delay).toBeGreaterThan(55_000);
  });

  it("GIVEN the use case gives up THEN the job fails with the reason, not retried", async () => {
    const job = await queue.add("never", {}, opts);
    await expect(job.waitUntilFinished(events, 15_000)).rejects.toThrow("order 7 refused by the service: bad request");
    const after = (await queue.getJob(job.id!))!;
    expect(await after.getState()).toBe("failed");
    expect(after.attemptsMade).toBe(1);
  });

  it("GIVEN the use case is done THEN the job completes with its answer", async () => {
    const job = await queue.add("fine", {}, opts);
    expect(await job.waitUntilFinished(events, 15_000)).toEqual({ sent: 1 });
  });
});
