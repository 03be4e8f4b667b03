import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/helpers/sequencer";

// The whole suite in one run, as projects (`npx vitest run --project <name>` runs one):
// - unit: pure functions, no Redis, database, server or global state: threads, no isolation, so a
//   file costs no process start and no second import of zod and friends;
// - integration: real Redis, real HTTP, both databases; files share processes, each with its own
//   copy of the app's modules (`shared` below);
// - browser: the same, with one Chromium for all files (global-chromium.ts);
// - contract-strict: the contract suite against an emulator that sends only the documented fields;
// - faults: the fault drills (worker processes killed, Redis restarted, timing bounds), after
//   everything else (test/run.sh runs them second), four files at a time: a drill mostly waits on
//   killed workers, restarts and timers (the seven took 51 s two at a time, 35 s four at a time),
//   and its bounds keep their margin with three others beside it (fairness, measured three times
//   four at a time: B's change 3.4-4.4 s against 15 s, B's orders at most 1.4 s against 5 s).
// - cluster: the Redis modules that write several keys at once, and a webhook's whole path through
//   BullMQ, on a private three-master Redis Cluster (global-redis-cluster.ts) with REDIS_CLUSTER on
//   (cluster-env.ts); beside the fault drills, whose group it joins.
// The longest file first, then project by project, longest first (test/helpers/sequencer.ts): no
// long file starts last on an otherwise idle machine, and a worker process goes on to the next file
// of its project rather than being replaced (52 processes for the first run → 13).

const ALL = [
  "app/**/*.test.ts",
  "workers/**/*.test.ts",
  "server/**/*.test.ts",
  "test/**/*.test.ts",
  "sandbox/**/*.test.ts",
  "prisma/**/*.test.ts",
  "extensions/*/src/**/*.test.ts",
];
const FAULTS = ["test/faults/**/*.test.ts"];
// The drills of the loaded mode (test/faults-loaded.sh): the data path's, run with every core busy.
const LOADED = [
  "test/faults/redis-restart.fault.test.ts",
  "test/faults/worker-kill.test.ts",
  "test/faults/service-outage.fault.test.ts",
  "test/faults/same-second-kill.test.ts",
];
// Files that need a Redis Cluster, and files of the other projects that run on one too: each takes
// its connection from test/helpers/redis.ts (testRedis) or the stack, which follow REDIS_CLUSTER.
const CLUSTER_ONLY = ["test/cluster/**/*.test.ts"];
const CLUSTER = [
  ...CLUSTER_ONLY,
  "app/.server/catalog/stage.test.ts",
  "app/.server/shopify/address-refusals.test.ts",
  "app/.server/resend/resend-ledger.test.ts",
  "app/.server/queues/{renewed-lock,worker-heartbeat}.test.ts",
  "app/.server/storefront/shopper/reviewed-products.test.ts",
  "app/.server/storefront/proxy/rate-limits.test.ts",
  "app/.server/activity/poll-schedule.test.ts",
  "app/.server/shopapp/{status,syndicate}.test.ts",
  "app/.server/reviews/{token-cache,service-pause}.test.ts",
  "app/.server/orders/order-lock.test.ts",
  "app/.server/metrics/metrics.test.ts",
  "workers/processors/catalog.sweep.test.ts",
];
const CONTRACT = ["test/contract/**/*.test.ts"];
const BROWSER = [
  "test/admin/*.e2e.test.ts",
  "test/e2e/*.browser.test.ts",
  "test/theme/blocks.test.ts",
  "test/theme/accessibility.test.ts",
  "test/theme/reviews-script.test.ts",
  "sandbox/dev-local/operator-dashboard.test.ts",
];
// A file belongs here only when it imports no service helper, starts nothing but an in-file HTTP
// stub it closes, and leaves process.env, globals and timers as it found them.
const UNIT = [
  "app/.server/admin/{google-channel,key-figures,local-bridge,moderation.order-names,shop-products,stats-cache}.test.ts",
  "app/.server/access-scopes.test.ts",
  "app/.server/activity/cadence.test.ts",
  "app/.server/backsync/{flow-triggers,group-membership,rating-metafields,shop-data-sync}.test.ts",
  "app/.server/cli/progress-bar.test.ts",
  "app/.server/crypto/secret-box.test.ts",
  "app/.server/db/batches.test.ts",
  "app/.server/mapping/*.test.ts",
  "app/.server/orders/{graphql-order.adapter,order-tracking}.test.ts",
  "app/.server/reviews/{errors,reviews-client}.test.ts",
  "app/.server/security/{safe-url,service-address}.test.ts",
  "app/.server/shopify/{admin-graphql,bulk-operations,documents}.test.ts",
  "app/.server/shops/address-probe.test.ts",
  "app/.server/shopify/{protected-customer-data,schema,throttle}.test.ts",
  "app/.server/storefront/liquid/*.test.ts",
  "app/.server/storefront/order-reviews/order-review-status-page.test.ts",
  "app/.server/storefront/proxy/{app-proxy-signature,reviews-query}.test.ts",
  "app/.server/storefront/questions/*.test.ts",
  "app/.server/storefront/writes/{attribute-answers,available-attributes,review-input}.test.ts",
  "app/.server/pending-reviews/kept-write-lookup.test.ts",
  "app/admin/**/*.test.ts",
  "app/shared/**/*.test.ts",
  "app/.server/catalog/{flush,flush-timing}.test.ts",
  "app/.server/jobs/outcome.test.ts",
  "app/.server/google/{feed-check,feed-entry,feed-parts,feed-url,feed-validators,feed-writer,xml-text}.test.ts",
  "app/.server/queues/keyspace.test.ts",
  "app/.server/shopapp/product-review.mapper.test.ts",
  "sandbox/dev-local/{demo-orders,demo-summary,terminal}.test.ts",
  "test/docs.test.ts",
  "test/bench/report.test.ts",
  "test/helpers/sequencer.test.ts",
  "test/toolchain/import-graph.test.ts",
  "test/toolchain/one-library-instance.test.ts",
  "test/theme/theme-check.test.ts",
];
const IGNORED = ["**/node_modules/**"];

const common = {
  setupFiles: ["test/helpers/setup-env.ts"],
  globalSetup: ["test/helpers/global-redis.ts"],
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // expect.poll's own default (1 s) is shorter than a page's revalidation after a post takes on a
  // loaded 2-core machine: a poll that was going to pass failed, and every later test of the file
  // with it. A poll still ends as soon as it passes.
  expect: { poll: { timeout: 15_000 } },
};

// Files that share a process: the packages load once per process (the integration project: 392 →
// 277 CPU-seconds, 202 → 145 s), while the app's own modules and the state they keep on globalThis
// start afresh in each file (fresh-modules.ts), as does the environment (setup-env.ts).
const shared = { isolate: false, setupFiles: [...common.setupFiles, "test/helpers/fresh-modules.ts"] };

export default defineConfig({
  test: {
    // Two cores on CI machines; files wait on HTTP, Redis and child processes, so more files than
    // cores keep both busy: with three the machine still idled 10-30% of the time in the middle of
    // the run, with four 1-3% (the run 436 → 410 s).
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: { ...common, name: "unit", include: UNIT, exclude: IGNORED, pool: "threads", isolate: false },
      },
      {
        test: {
          ...common,
          name: "integration",
          include: ALL,
          exclude: [...IGNORED, ...UNIT, ...BROWSER, ...FAULTS, ...CLUSTER_ONLY],
          pool: "forks",
          ...shared,
        },
      },
      {
        test: {
          ...common,
          name: "browser",
          include: BROWSER,
          exclude: IGNORED,
          pool: "forks",
          ...shared,
          globalSetup: [...common.globalSetup, "test/helpers/global-chromium.ts"],
        },
      },
      {
        // The client against a service that sends only the documented fields (docs/reviews-service.md).
        test: {
          ...common,
          name: "contract-strict",
          include: CONTRACT,
          exclude: IGNORED,
          pool: "forks",
          ...shared,
          env: { EMULATOR_STRICT: "1" },
        },
      },
      {
        test: {
          ...common,
          name: "faults",
          include: FAULTS,
          exclude: IGNORED,
          pool: "forks",
          testTimeout: 180_000,
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
        },
      },
      // Only when asked for (FAULTS_LOADED=1, test/faults-loaded.sh): a plain `vitest run <drill>`
      // must not start the burners.
      ...(process.env.FAULTS_LOADED
        ? [
            {
              test: {
                ...common,
                name: "faults-loaded",
                include: LOADED,
                exclude: IGNORED,
                pool: "forks" as const,
                testTimeout: 180_000,
                // One drill at a time beside the burners: each meets two cores held busy, as in CI beside
                // other work. Four at once on top made the load ~10 and measured the machine, not the drill.
                maxWorkers: 1,
                globalSetup: [...common.globalSetup, "test/helpers/global-burner.ts"],
              },
            },
          ]
        : []),
      {
        test: {
          ...common,
          name: "cluster",
          include: CLUSTER,
          exclude: IGNORED,
          pool: "forks",
          ...shared,
          setupFiles: [...shared.setupFiles, "test/helpers/cluster-env.ts"],
          globalSetup: ["test/helpers/global-redis-cluster.ts"],
          // In the drills' group, whose four workers it shares (vitest wants one maxWorkers a group):
          // its files wait on Redis, and take a worker as the drills leave one.
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
