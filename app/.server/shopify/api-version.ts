// The Admin API version of every call and webhook, the one constant: the Admin client and the
// app's library instances take it from here (shopify.app.toml says the same for webhooks). A plain
// string, so the client loads no part of the Shopify library; the instances name it as the library's
// ApiVersion.
export const SHOPIFY_API_VERSION = "2026-10";
