import type { Logger } from "pino";
import type { Config } from "../app/.server/config";
import { createDb, type Db } from "../app/.server/db/client";
import { createLogger } from "../app/.server/logger";
import { createQueues, type Queues } from "../app/.server/queues/queues";
import { createShopRepository, type ShopRepository } from "../app/.server/shops/shop.repository";

// What a processor may use. Built once per worker process (or per test, on its own database and
// Redis prefix), and closed on shutdown.
export interface WorkerContext {
  config: Config;
  db: Db;
  log: Logger;
  shops: ShopRepository;
  /** Worker-role queues: reconnect forever, used to enqueue follow-up work. */
  queues: Queues;
  close(): Promise<void>;
}

export function createWorkerContext(config: Config, options: { log?: Logger; db?: Db } = {}): WorkerContext {
  const log = options.log ?? createLogger({ name: "worker", level: config.LOG_LEVEL });
  const db = options.db ?? createDb(config.DATABASE_URL);
  const queues = createQueues({
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    role: "worker",
    onError: (e) => log.warn({ err: e.message }, "redis error"),
  });
  return {
    config,
    db,
    log,
    shops: createShopRepository(db, config.ENCRYPTION_KEY),
    queues,
    async close() {
      await queues.close();
      if (!options.db) await db.$disconnect();
    },
  };
}
