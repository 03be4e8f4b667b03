import client from "prom-client";

// The process's Prometheus metrics: one registry per process, and small `observe*` hooks that the
// modules doing the work call in one line each. Kept on a global registry because the web process
// runs two module graphs (server entry from source, the app from its bundle) that must count into
// one registry. Names and labels are listed in README ("Metrics").

const KEY = Symbol.for("reviews-connector.metrics");

/** The queues whose depth and oldest waiting job are read at scrape time (the worker's). */
export interface QueueSource {
  names: readonly string[];
  counts(name: string): Promise<Record<string, number>>;
  /** Enqueue time (ms) of the oldest job waiting to run, or null. */
  oldestWaiting(name: string): Promise<number | null>;
}

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  const jobSeconds = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800];
  let queueSource: QueueSource | undefined;
  const m = {
    registry,
    setQueueSource: (source: QueueSource | undefined) => (queueSource = source),
    webhooks: new client.Counter({
      name: "reviews_webhooks_received_total",
      help: "Webhook deliveries received, by topic and HTTP answer",
      labelNames: ["topic", "status"],
      registers: [registry],
    }),
    webhookAck: new client.Histogram({
      name: "reviews_webhook_ack_seconds",
      help: "Time from a webhook request to its answer",
      labelNames: ["topic"],
      buckets: seconds,
      registers: [registry],
    }),
    jobs: new client.Counter({
      name: "reviews_jobs_total",
      help: "Jobs finished by queue and outcome (completed; retry: failed with attempts left; failed: out of attempts or unrecoverable)",
      labelNames: ["queue", "outcome"],
      registers: [registry],
    }),
    jobDuration: new client.Histogram({
      name: "reviews_job_duration_seconds",
      help: "Time a job ran, by queue",
      labelNames: ["queue"],
      buckets: jobSeconds,
      registers: [registry],
    }),
    service: new client.Counter({
      name: "reviews_service_requests_total",
      help: "Calls to the reviews service by API, endpoint and status (timeout, network: no answer)",
      labelNames: ["api", "endpoint", "status"],
      registers: [registry],
    }),
    serviceSeconds: new client.Histogram({
      name: "reviews_service_request_seconds",
      help: "Duration of calls to the reviews service, by API",
      labelNames: ["api"],
      buckets: seconds,
      registers: [registry],
    }),
    pauses: new client.Counter({
      name: "reviews_service_pauses_total",
      help: "Retry-After pauses started after a 429 of the reviews service",
      registers: [registry],
    }),
    pauseSeconds: new client.Counter({
      name: "reviews_service_pause_seconds_total",
      help: "Seconds of Retry-After pauses asked by the reviews service",
      registers: [registry],
    }),
    throttled: new client.Counter({
      name: "reviews_shopify_throttled_total",
      help: "Shopify Admin GraphQL answers THROTTLED (or 429)",
      registers: [registry],
    }),
    throttleWait: new client.Counter({
      name: "reviews_shopify_throttle_wait_seconds_total",
      help: "Seconds waited for Shopify's cost bucket after THROTTLED answers",
      registers: [registry],
    }),
    addressRefusals: new client.Counter({
      name: "reviews_shopify_address_refusals_total",
      help: "Shopify refused this server's address (IP allowlist), by event: refused (a shop entered the state), probe_refused, recovered",
      labelNames: ["event"],
      registers: [registry],
    }),
    addressRefusedShops: new client.Gauge({
      name: "reviews_shopify_address_refused_shops",
      help: "Shops whose Admin API calls Shopify refuses now (IP allowlist), as last seen by this process",
      registers: [registry],
    }),
    syncReadPaths: new client.Counter({
      name: "reviews_sync_read_path_total",
      help: "Full syncs and backfills by kind and the way they read Shopify (bulk; paged: bulk operations refused)",
      labelNames: ["kind", "path"],
      registers: [registry],
    }),
    syncRuns: new client.Counter({
      name: "reviews_sync_runs_total",
      help: "Full syncs and backfills, by kind and outcome (started, completed, failed, cancelled)",
      labelNames: ["kind", "outcome"],
      registers: [registry],
    }),
    unsafeUrls: new client.Counter({
      name: "reviews_unsafe_urls_dropped_total",
      help: "URLs from the service or a shopper dropped before rendering (not https, or hiding another scheme), by place",
      labelNames: ["place"],
      registers: [registry],
    }),
    tokenRefreshes: new client.Counter({
      name: "reviews_shopify_token_refreshes_total",
      help: "Offline token refreshes outside merchant requests, by outcome (refreshed, lost-answer-retried, needs-merchant, failed)",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    tokenMigrations: new client.Counter({
      name: "reviews_shopify_token_migrations_total",
      help: "Non-expiring offline tokens exchanged for expiring ones, by outcome (migrated, already-expiring, needs-merchant, failed)",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    resends: new client.Counter({
      name: "reviews_resends_total",
      help: "Products and orders sent again because the service no longer knew them, by kind (product, order; account: everything, after a connection to another account) and outcome (resent; denied: still unknown inside its resend window, reported, not sent)",
      labelNames: ["kind", "outcome"],
      registers: [registry],
    }),
    tokenStates: new client.Counter({
      name: "reviews_shopify_token_state_changes_total",
      help: "Shops whose offline token changed state, by new state (ok, refresh-failing, needs-merchant)",
      labelNames: ["state"],
      registers: [registry],
    }),
  };
  new client.Gauge({
    name: "reviews_queue_jobs",
    help: "Jobs in each queue by state, read at scrape time",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      this.reset();
      if (!queueSource) return;
      for (const name of queueSource.names) {
        const counts = await queueSource.counts(name).catch(() => ({}) as Record<string, number>);
        for (const [state, n] of Object.entries(counts)) this.set({ queue: name, state }, n);
      }
    },
  });
  new client.Gauge({
    name: "reviews_queue_oldest_waiting_seconds",
    help: "Age of the oldest job waiting to run in each queue (0 when none waits)",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      this.reset();
      if (!queueSource) return;
      const now = Date.now();
      for (const name of queueSource.names) {
        const oldest = await queueSource.oldestWaiting(name).catch(() => null);
        this.set({ queue: name }, oldest === null ? 0 : Math.max(0, (now - oldest) / 1000));
      }
    },
  });
  return m;
}

export type Metrics = ReturnType<typeof create>;

export function metrics(): Metrics {
  const g = globalThis as unknown as Record<symbol, Metrics | undefined>;
  return (g[KEY] ??= create());
}

// ---- hooks: one call at the place where the thing happens ------------------------------------

export function observeWebhook(topic: string, status: number, seconds: number) {
  const m = metrics();
  m.webhooks.inc({ topic, status: String(status) });
  m.webhookAck.observe({ topic }, seconds);
}

export function observeJob(
  queue: string,
  outcome: "completed" | "retry" | "failed",
  job?: { processedOn?: number; finishedOn?: number },
) {
  const m = metrics();
  m.jobs.inc({ queue, outcome });
  if (job?.processedOn && job.finishedOn) m.jobDuration.observe({ queue }, (job.finishedOn - job.processedOn) / 1000);
}

// Words of the service's documented paths; any other segment is a value (SKU, id, token) and is
// shown as ":id", so the endpoint label has a bounded set of values.
const PATH_WORDS = new Set(
  "orders products batch reviews all questions nps responses report moderate groups ratings summary review pictures video presign confirm attributes like dislike store-reviews published carousel question top-rated active find find-batch rating-link oauth token".split(
    " ",
  ),
);

/** `/acme/products/SKU-1` → `products/:id` (the first segment, the account, is left out). */
export function endpointLabel(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .slice(1)
    .map((s) => (PATH_WORDS.has(s) ? s : ":id"))
    .join("/");
}

export function observeServiceCall(
  request: { api: string; method: string; path: string },
  status: number | string,
  seconds: number,
) {
  const m = metrics();
  m.service.inc({
    api: request.api,
    endpoint: `${request.method} ${endpointLabel(request.path)}`,
    status: String(status),
  });
  m.serviceSeconds.observe({ api: request.api }, seconds);
}

export function observeServicePause(ms: number) {
  const m = metrics();
  m.pauses.inc();
  m.pauseSeconds.inc(ms / 1000);
}

export function observeShopifyThrottle(waitMs: number) {
  const m = metrics();
  m.throttled.inc();
  m.throttleWait.inc(waitMs / 1000);
}

export function observeSyncRun(kind: string, outcome: string) {
  metrics().syncRuns.inc({ kind, outcome });
}

export function observeUnsafeUrl(place: string) {
  metrics().unsafeUrls.inc({ place });
}

/** A change of the IP allowlist state, with the count of refused shops after it. */
export function observeAddressRefusal(event: "refused" | "probe_refused" | "recovered", refusedShops: number) {
  const m = metrics();
  m.addressRefusals.inc({ event });
  m.addressRefusedShops.set(refusedShops);
}

/** Which way a full sync or backfill read Shopify. */
export function observeSyncReadPath(kind: string, path: "bulk" | "paged") {
  metrics().syncReadPaths.inc({ kind, path });
}

export function observeTokenRefresh(outcome: string) {
  metrics().tokenRefreshes.inc({ outcome });
}

export function observeTokenMigration(outcome: string) {
  metrics().tokenMigrations.inc({ outcome });
}

export function observeTokenState(state: string) {
  metrics().tokenStates.inc({ state });
}

/** Products or orders sent again (or denied again inside their window) because the service no longer knew them. */
export function observeResend(kind: "product" | "order" | "account", outcome: "resent" | "denied", n = 1) {
  if (n > 0) metrics().resends.inc({ kind, outcome }, n);
}
