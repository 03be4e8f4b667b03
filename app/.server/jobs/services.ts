import type { Logger } from "pino";
import type { Shop } from "@prisma/client";
import type { Config } from "../config";
import type { Db } from "../db";
import type { Queues } from "../queues";
import type { ReviewsClient } from "../reviews";
import type { AdminGraphql } from "../shopify";

// The services a job's use case may be given. The worker's context has them all (and more: its
// delivery trail, the probe's client); each use case names the few it uses with a Pick, so that it
// can be run, and read, without the worker around it. A domain's own stores join the list from
// the domain (shops/services.ts, catalog/services.ts): this floor names no domain.
export interface JobServices {
  config: Config;
  db: Db;
  log: Logger;
  /** Queues to enqueue follow-up work on. */
  queues: Queues;
  /** The shop's row, cached for a short while (config.SHOP_CACHE_MS). */
  cachedShop(domain: string): Promise<Shop | null>;
  forgetShop(domain: string): void;
  /** The reviews client of a connected shop; `shop`: its row, when the caller read it already. */
  reviewsFor(domain: string, shop?: Shop): Promise<ReviewsClient>;
  /** Admin GraphQL of a shop; throws ShopifyAddressRefusedError while Shopify refuses this server. */
  adminFor(domain: string): Promise<AdminGraphql>;
}
