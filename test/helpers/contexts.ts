import { Writable } from "node:stream";
import { parseConfig, type Config } from "../../app/.server/config";
import { createLogger } from "../../app/.server/logger";
import { createQueues } from "../../app/.server/queues/queues";
import { createShopRepository } from "../../app/.server/shops/shop.repository";
import type { AppContext } from "../../app/.server/context.server";
import { createWorkerContext, type WorkerContext } from "../../workers/context";
import type { Db } from "../../app/.server/db/client";
import { redisUrl } from "./redis";

/** Every log line of a test's processes, kept so a test can assert on what was (not) logged. */
export class LogSink extends Writable {
  lines: string[] = [];
  _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(chunk.toString());
    done();
  }
  text() {
    return this.lines.join("");
  }
}

export function testConfig(
  overrides: Partial<Record<keyof Config, string>> & { DATABASE_URL: string; REDIS_PREFIX: string },
): Config {
  return parseConfig({ ...process.env, REDIS_URL: redisUrl(), LOG_LEVEL: "debug", ...overrides });
}

export function testAppContext(config: Config, db: Db, sink = new LogSink()): AppContext & { sink: LogSink } {
  const log = createLogger({ name: "web", level: config.LOG_LEVEL, destination: sink });
  return {
    config,
    db,
    log,
    sink,
    shops: createShopRepository(db, config.ENCRYPTION_KEY),
    queues: createQueues({
      redisUrl: config.REDIS_URL,
      cluster: config.REDIS_CLUSTER,
      prefix: config.REDIS_PREFIX,
      role: "producer",
      backoffMs: config.JOB_BACKOFF_MS,
    }),
  };
}

export function testWorkerContext(config: Config, db: Db, sink = new LogSink()): WorkerContext & { sink: LogSink } {
  const log = createLogger({ name: "worker", level: config.LOG_LEVEL, destination: sink });
  return Object.assign(createWorkerContext(config, { log, db }), { sink });
}

/** Polls a condition until it holds; for state reached through queues and workers, never a sleep. */
export async function eventually<T>(
  probe: () => Promise<T>,
  accept: (v: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  let delay = 10;
  while (!accept(last)) {
    if (Date.now() > deadline)
      throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 200);
    last = await probe();
  }
  return last;
}
