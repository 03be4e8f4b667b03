import { ApiVersion } from "@shopify/shopify-api";

// The Admin API version of every call and webhook, the one constant: the app's library instances
// and the Admin client take it from here (shopify.app.toml says the same for webhooks).
export const SHOPIFY_API_VERSION = ApiVersion.October26;
