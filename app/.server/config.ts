import { z } from "zod";
import { REQUESTED_SCOPES } from "./access-scopes";

// The environment, read once and validated. A missing or malformed value stops the process at start
// with one line naming the variable (see `loadConfig`), never a stack trace three modules later.

const url = (what: string) =>
  z.url({ protocol: /^https?$/, message: `must be an http(s) URL (${what})` }).transform((u) => u.replace(/\/+$/, ""));

const key32 = z.string().refine((v) => /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, "base64").length === 32, {
  message: "must be 32 bytes as 64 hex characters or base64 (openssl rand -hex 32)",
});

const configFields = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  SHOPIFY_API_KEY: z.string().min(1, "is required (the app's client id from the Partner Dashboard)"),
  SHOPIFY_API_SECRET: z.string().min(1, "is required (the app's client secret)"),
  SCOPES: z.string().min(1).default(REQUESTED_SCOPES),
  SHOPIFY_APP_URL: url("the public URL Shopify calls"),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: (SQLite) or postgresql:// (PostgreSQL)")
    .default("file:./prisma/dev.sqlite"),
  // One Redis, or with REDIS_CLUSTER the seed nodes of a Redis Cluster, comma-separated: the
  // client learns the other nodes from any one that answers (a password in the URL, as for one).
  REDIS_URL: z
    .string()
    .regex(
      /^rediss?:\/\/[^,\s]+(\s*,\s*rediss?:\/\/[^,\s]+)*$/,
      "must start with redis:// or rediss:// (with REDIS_CLUSTER: such URLs, comma-separated)",
    )
    .default("redis://127.0.0.1:6379"),
  // A Redis Cluster rather than one Redis: every connection is a cluster client, and the keys that
  // are written together carry a hash tag so that they share a slot (queues/keyspace.ts).
  REDIS_CLUSTER: z
    .enum(["true", "false", "1", "0"], { message: "must be true or false" })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  // A key prefix keeps several deployments (or test runs) apart on one Redis.
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "may hold letters, digits, _ and - only")
    .default("reviews"),
  REVIEWS_API_URL: url("{base_url} of the reviews service"),
  REVIEWS_AUTH_URL: url("{auth_url} of the reviews service"),
  REVIEWS_RATE_URL: url("{rate_url} of the reviews service"),
  ENCRYPTION_KEY: key32,
  // Where a shop's Admin API and token endpoint live: https://{shop} unless set. A template in which
  // {shop} becomes the shop's domain (http://127.0.0.1:4010/shops/{shop}), or one origin for a
  // one-shop stand-in: the simulated store, the offline demo.
  SHOPIFY_ORIGIN: z
    .string()
    .refine((v) => URL.canParse(v.replaceAll("{shop}", "example.myshopify.com")) && /^https?:\/\//.test(v), {
      message: "must be an http(s) origin, {shop} standing for the shop's domain (http://127.0.0.1:4010/shops/{shop})",
    })
    .transform((u) => u.replace(/\/+$/, ""))
    .optional(),
  // How long before an expiring offline token's end the app refreshes it (Shopify's tokens live 1 h).
  SHOPIFY_TOKEN_REFRESH_MARGIN_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
  // How often the workers look for shops still on a non-expiring offline token (a row written by an
  // older version, a restored backup) and migrate them: a cheap query when there are none.
  TOKEN_MIGRATION_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  // How long live catalog changes of one shop are gathered before they are sent as one batch.
  // Quiet time that ends a window, and the longest any change waits for its batch. 3.5 s keeps a
  // change within seconds (the max is now a bound: a batch's leftovers keep their own wait) and lets
  // a storm's repeated changes of a product merge (test/bench/bench-report.md, update storm).
  CATALOG_FLUSH_WINDOW_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  CATALOG_FLUSH_MAX_WAIT_MS: z.coerce.number().int().min(0).max(300_000).default(3500),
  // How long shipment news from a fulfillment webhook waits before it is sent as a status update:
  // Shopify sends orders/fulfilled or orders/updated with most of it, and that order webhook then
  // carries the news in the one request of the change. 0 sends the update at once.
  ORDER_TRACKING_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  // How long a worker reuses a shop's row (settings, install state) before reading it again, and
  // the product data (from the catalog mirror) it put into order items.
  SHOP_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  // How often a worker looks for shops whose catalog changes wait with no flush coming for them.
  CATALOG_SWEEP_MS: z.coerce.number().int().min(1000).max(86_400_000).default(600_000),
  // `npm run dev:local` only: the app serves a stand-in for App Bridge's CDN script at
  // /local/app-bridge.js so the embedded admin opens with no Shopify admin around it. Ignored when
  // NODE_ENV is production (app/.server/admin/local-bridge.ts).
  ADMIN_LOCAL_BRIDGE: z.enum(["0", "1"]).default("0"),
  // The file holding that stand-in's script, written by `dev:local` from sandbox/app-bridge/: the
  // app reads it rather than importing sandbox code. Unset: /local/app-bridge.js is not served.
  ADMIN_LOCAL_BRIDGE_SCRIPT: z.string().default(""),
  // Ratings back into Shopify: how often the review-change feed is polled per active shop (0: no
  // scheduler; runs still come after connect and moderations), the longest a quiet shop waits
  // between polls (activity/cadence.ts: the period follows the shop's rate of changes), and the full
  // reconciliation's period (each shop at its own moment of it). 50 s: a moderation at the service
  // reaches a busy shop's storefront within a minute (the interval, the tick's 5 s and the run that
  // writes it; bench scenario fleet), a quiet one's within 15 minutes (14 min 50 s and the same).
  BACKSYNC_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(50_000),
  BACKSYNC_QUIET_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(890_000),
  BACKSYNC_RECONCILE_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(7 * 86_400_000)
    .default(86_400_000),
  // When the service says it does not know a product or an order the app sent, that one is sent
  // again at most once in this window: a service that keeps denying it is reported, not fed a loop.
  RESEND_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(30 * 86_400_000)
    .default(86_400_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  // Webhook deliveries per worker process at once: each is mostly waiting on Redis, and the ones
  // finishing together share one write of their records.
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(512).default(32),
  // First retry delay of a failed job; it doubles per attempt (15 attempts: about 4.5 h at 1000).
  JOB_BACKOFF_MS: z.coerce.number().int().min(1).max(60_000).default(1000),
  // How long a worker holds a job before another may take it up as stalled (its process died).
  WORKER_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  // Bulk operation polling, the fallback of bulk_operations/finish
  BULK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(5000),
  // Shopify refused this server's address (IP allowlist): a shop's Admin API work is parked and one
  // cheap query probes, first after ADMIN_PROBE_MIN_MS, doubling up to ADMIN_PROBE_MAX_MS.
  ADMIN_PROBE_MIN_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  ADMIN_PROBE_MAX_MS: z.coerce.number().int().min(10).max(86_400_000).default(1_800_000),
  // How long one call to the reviews service may take before it counts as failed (and is retried).
  // Fault drills scale it down with the retry schedule, so a timeout costs them less than 15 s.
  REVIEWS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  // The admin's charts (survey answers, review trends) page through the service: their sums are
  // reused for this long per shop and query. 0: computed on every page view.
  ADMIN_STATS_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  // App proxy (storefront reads): how long a rendered answer is reused from Redis, and the limits:
  // requests per shopper IP per minute (every request), and calls to the service per shop per
  // minute (cache misses). 0 turns a limit off.
  PROXY_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  PROXY_IP_LIMIT_PER_MIN: z.coerce.number().int().min(0).max(1_000_000).default(120),
  PROXY_SHOP_LIMIT_PER_MIN: z.coerce.number().int().min(0).max(1_000_000).default(600),
  // Shopper writes (reviews) through the app proxy: stricter than reads.
  PROXY_WRITE_IP_LIMIT_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(20),
  PROXY_WRITE_CUSTOMER_LIMIT_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(10),
  PROXY_WRITE_SHOP_LIMIT_PER_MIN: z.coerce.number().int().min(0).max(1_000_000).default(60),
  PROXY_WRITE_BODY_MAX_BYTES: z.coerce.number().int().min(1_024).max(1_048_576).default(16_384),
  CUSTOMER_IDENTITY_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
  REVIEW_UPDATE_TOKEN_TTL_MS: z.coerce.number().int().min(60_000).max(86_400_000).default(3_600_000),
  // Operations (server/): the longest a web process takes from SIGTERM to exit, requests in flight
  // answered and connections closed; a deployment's grace period should be longer.
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  // How long the listener stays open after SIGTERM with readiness already false, so that a load
  // balancer that polls /ready stops sending before connections are refused (part of the bound).
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // Prometheus scrape endpoints (GET /metrics), each on a port of its own, off when unset; a
  // METRICS_TOKEN makes them ask for `Authorization: Bearer <token>`.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default("0.0.0.0"),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (openssl rand -hex 16)").optional(),
  // The queue dashboard (bull-board at /ops/queues): off unless an operator password is set; HTTP
  // basic authentication; read only unless QUEUE_DASHBOARD_WRITE=true (retry, clean, pause...).
  OPERATOR_USER: z.string().min(1).default("operator"),
  OPERATOR_PASSWORD: z.string().min(12, "must be at least 12 characters (openssl rand -base64 18)").optional(),
  QUEUE_DASHBOARD_WRITE: z
    .enum(["true", "false", "1", "0"], { message: "must be true or false" })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
});

export const configSchema = configFields.superRefine((config, ctx) => {
  // Several seeds without REDIS_CLUSTER would be read as one URL and fail at the first command.
  if (!config.REDIS_CLUSTER && config.REDIS_URL.includes(","))
    ctx.addIssue({
      code: "custom",
      path: ["REDIS_URL"],
      message: "holds several URLs: set REDIS_CLUSTER=1 for a Redis Cluster, else give one URL",
    });
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Configuration error: ${variable} ${detail}`);
    this.name = "ConfigError";
  }
}

/** Parses an environment; throws ConfigError naming the first bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings count as absent so that `FOO=` in a .env file falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = configSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const variable = String(issue.path[0] ?? "environment");
  const detail = issue.code === "invalid_type" && cleaned[variable] === undefined ? "is required" : issue.message;
  throw new ConfigError(variable, detail);
}

let cached: Config | undefined;

/**
 * The process configuration. Called at start by every entry point: on a bad value it prints one line
 * and exits 1 (in tests it throws instead, so a test can assert on it).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  if (cached && env === process.env) return cached;
  try {
    const config = parseConfig(env);
    if (env === process.env) cached = config;
    return config;
  } catch (error) {
    if (error instanceof ConfigError && process.env.NODE_ENV !== "test" && !process.env.VITEST) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** For tests that change the environment between cases. */
export function resetConfigCache() {
  cached = undefined;
}
