import { resetConfigCache } from "../../app/.server/config";

// Files that share a process (vitest's isolate: false) each start from the environment the process
// started with: a variable one file set (DATABASE_URL, the contract target) never reaches the next,
// and the configuration is parsed again from it.
const started = ((globalThis as { __startEnv?: Record<string, string | undefined> }).__startEnv ??= {
  ...process.env,
});
for (const key of Object.keys(process.env)) if (!(key in started)) delete process.env[key];
Object.assign(process.env, started);
resetConfigCache();

// `REVIEWS_API_URL=<base_url> npm test` (or `npx vitest run test/contract`): the contract suite runs
// against that implementation of the service instead of its own emulators. The other URLs and the
// credentials default to the layout and demo account of `npm run emulator`; CONTRACT_* variables
// (test/contract/README.md) override each of them.
if (process.env.REVIEWS_API_URL && !process.env.CONTRACT_API_URL) {
  const base = process.env.REVIEWS_API_URL.replace(/\/+$/, "");
  const origin = new URL(base).origin;
  process.env.CONTRACT_API_URL = base;
  process.env.CONTRACT_AUTH_URL ??= process.env.REVIEWS_AUTH_URL ?? `${origin}/auth`;
  process.env.CONTRACT_RATE_URL ??= process.env.REVIEWS_RATE_URL ?? origin;
  process.env.CONTRACT_CUSTOMER ??= "demo-store";
  process.env.CONTRACT_CLIENT_ID ??= "demo-client";
  process.env.CONTRACT_CLIENT_SECRET ??= "demo-secret";
}

// The environment every test starts from: complete and valid, so a test changes one thing at a time.
// The Shopify values are test values; nothing here reaches Shopify.
const defaults: Record<string, string> = {
  NODE_ENV: "test",
  SHOPIFY_API_KEY: "test-api-key",
  SHOPIFY_API_SECRET: "test-api-secret",
  SHOPIFY_APP_URL: "https://reviews-app.test",
  SCOPES:
    "write_products,read_orders,read_fulfillments,read_customers,write_metaobject_definitions,write_metaobjects,write_app_proxy",
  REVIEWS_API_URL: "http://127.0.0.1:9/api",
  REVIEWS_AUTH_URL: "http://127.0.0.1:9/auth",
  REVIEWS_RATE_URL: "http://127.0.0.1:9",
  ENCRYPTION_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  LOG_LEVEL: "silent",
  // The back-sync scheduler polls every connected shop; tests that want it turn it on.
  BACKSYNC_INTERVAL_MS: "0",
  // Bulk operations in the simulated store finish in milliseconds: polling them every 5 s only
  // made each sync wait (orders-sync 74 s → 28 s with 100 ms). Tests of the poll itself set theirs.
  BULK_POLL_INTERVAL_MS: "100",
  // The simulated store's tokens live 60 s: refresh 10 s before the end, not 5 minutes.
  SHOPIFY_TOKEN_REFRESH_MARGIN_MS: "10000",
};
for (const [k, v] of Object.entries(defaults)) process.env[k] ??= v;
