// The Admin API version of every call and webhook (shopify.app.toml says the same for webhooks).
export const SHOPIFY_API_VERSION = "2026-10";
