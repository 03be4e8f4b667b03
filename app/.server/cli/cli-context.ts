import { loadConfig, type Config } from "../config";
import { createDb, type Db } from "../db";
import { createQueues, type Queues } from "../queues";
import { createShopRepository, type ShopRepository } from "../shops";

// The parts a CLI command needs, built from the environment the command runs in.
export interface CliContext {
  config: Config;
  db: Db;
  shops: ShopRepository;
  queues(): Queues;
  close(): Promise<void>;
}

export function createCliContext(env: Record<string, string | undefined>): CliContext {
  const config = loadConfig(env);
  const db = createDb(config.DATABASE_URL);
  let queues: Queues | undefined;
  return {
    config,
    db,
    shops: createShopRepository(db, config.ENCRYPTION_KEY),
    queues() {
      queues ??= createQueues({
        redisUrl: config.REDIS_URL,
        cluster: config.REDIS_CLUSTER,
        prefix: config.REDIS_PREFIX,
        role: "producer",
        backoffMs: config.JOB_BACKOFF_MS,
      });
      return queues;
    },
    async close() {
      await queues?.close();
      await db.$disconnect();
    },
  };
}
