import type { Logger } from "pino";
import prisma from "../db.server";
import { loadConfig, type Config } from "./config";
import { onClose } from "./lifecycle";
import type { Db } from "./db";
import { logger } from "./logger";
import { createQueues, type Queues } from "./queues";
import { createShopRepository, type ShopRepository } from "./shops";

// The web process's shared parts, made on first use. Routes reach them through here so that a route
// module stays a thin adapter from HTTP to a use case.
export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  shops: ShopRepository;
  /** Fail-fast producer queues: an add either reaches Redis or throws at once. */
  queues: Queues;
}

declare global {
  var __reviewsContext: AppContext | undefined;
}

export function appContext(): AppContext {
  if (globalThis.__reviewsContext) return globalThis.__reviewsContext;
  const config = loadConfig();
  const log = logger();
  const context: AppContext = {
    config,
    db: prisma,
    log,
    shops: createShopRepository(prisma, config.ENCRYPTION_KEY),
    queues: createQueues({
      redisUrl: config.REDIS_URL,
      cluster: config.REDIS_CLUSTER,
      prefix: config.REDIS_PREFIX,
      role: "producer",
      backoffMs: config.JOB_BACKOFF_MS,
      onError: (e) => log.warn({ err: e.message }, "redis (producer) error"),
    }),
  };
  globalThis.__reviewsContext = context;
  onClose("queues", () => context.queues.close());
  return context;
}

/** Tests swap the context for one on their own database and Redis prefix. */
export function setAppContext(context: AppContext | undefined) {
  globalThis.__reviewsContext = context;
}
