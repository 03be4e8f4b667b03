// The environment every test starts from: complete and valid, so a test changes one thing at a time.
// The Shopify values are test values; nothing here reaches Shopify.
const defaults: Record<string, string> = {
  NODE_ENV: "test",
  SHOPIFY_API_KEY: "test-api-key",
  SHOPIFY_API_SECRET: "test-api-secret",
  SHOPIFY_APP_URL: "https://reviews-app.test",
  SCOPES: "read_products,read_orders,read_fulfillments,read_customers,write_metafields,write_app_proxy",
  REVIEWS_API_URL: "http://127.0.0.1:9/api",
  REVIEWS_AUTH_URL: "http://127.0.0.1:9/auth",
  REVIEWS_RATE_URL: "http://127.0.0.1:9",
  ENCRYPTION_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  LOG_LEVEL: "silent",
};
for (const [k, v] of Object.entries(defaults)) process.env[k] ??= v;
