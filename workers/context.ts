import type { Logger } from "pino";
import type { Config } from "../app/.server/config";
import { createDb, type Db } from "../app/.server/db";
import { createTtlCache } from "../app/.server/cache";
import { createLogger } from "../app/.server/logger";
import { createQueues } from "../app/.server/queues";
import { createShopRepository, shopReviewsClients, addressGatedAdmin } from "../app/.server/shops";
import type { Shop } from "@prisma/client";
import { type AdminGraphql, adminForShopOf, type TokenProvider, type AddressRefusals } from "../app/.server/shopify";
import { createPendingChanges, createProductMirror } from "../app/.server/catalog";
import { createDeliveryRecorder, type DeliveryRecorder } from "./delivery-records";
import type { JobServices } from "../app/.server/jobs";
export { NoOfflineSessionError } from "../app/.server/shopify";

// What a processor may use: the services a use case may be given (JobServices, of which each use
// case picks the few it needs), and the worker's own plumbing. Built once per worker process (or
// per test, on its own database and Redis prefix), and closed on shutdown.
export interface WorkerContext extends JobServices {
  /** The webhook delivery trail, written by group commit. */
  deliveries: DeliveryRecorder;
  /** Admin GraphQL without adminFor's gate on refused addresses: for the probe only. */
  probeAdminFor(domain: string): Promise<AdminGraphql>;
  /** Shops whose calls Shopify refuses now, and the work parked meanwhile. */
  refusals: AddressRefusals;
  /** The shops' offline tokens: refreshed before expiry, one refresh per shop across processes. */
  tokens: TokenProvider;
  close(): Promise<void>;
}

export function createWorkerContext(
  config: Config,
  options: { log?: Logger; db?: Db; fetch?: typeof globalThis.fetch } = {},
): WorkerContext {
  const log = options.log ?? createLogger({ name: "worker", level: config.LOG_LEVEL });
  const db = options.db ?? createDb(config.DATABASE_URL);
  const queues = createQueues({
    redisUrl: config.REDIS_URL,
    cluster: config.REDIS_CLUSTER,
    prefix: config.REDIS_PREFIX,
    role: "worker",
    backoffMs: config.JOB_BACKOFF_MS,
    onError: (e) => log.warn({ err: e.message }, "redis error"),
  });
  const shops = createShopRepository(db, config.ENCRYPTION_KEY);
  const reviewsFor = shopReviewsClients({ config, shops, redis: queues.redis, log, fetch: options.fetch });
  const shopCache = createTtlCache<Promise<Shop | null>>({ max: 10_000, ttlMs: config.SHOP_CACHE_MS });
  const admin = adminForShopOf(config, { db, redis: queues.redis, log, fetch: options.fetch });
  const plainAdminFor = admin.adminFor;
  const { adminFor, refusals } = addressGatedAdmin({ adminFor: plainAdminFor, queues, config, log });
  return {
    config,
    db,
    log,
    shops,
    queues,
    pending: createPendingChanges(queues.redis, config.REDIS_PREFIX),
    mirror: createProductMirror(db),
    deliveries: createDeliveryRecorder(db, log),
    cachedShop(domain) {
      const hit = shopCache.get(domain);
      if (hit) return hit;
      const row = shops.find(domain).catch(() => null);
      shopCache.set(domain, row);
      return row;
    },
    forgetShop(domain) {
      shopCache.delete(domain);
    },
    reviewsFor,
    adminFor,
    probeAdminFor: plainAdminFor,
    refusals,
    tokens: admin.tokens,
    async close() {
      await queues.close();
      if (!options.db) await db.$disconnect();
    },
  };
}
