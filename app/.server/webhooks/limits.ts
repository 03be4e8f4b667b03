// Shopify's webhook bodies are far smaller; a longer one is refused before it is read whole. In a
// module of its own so the web server's webhook path (server/webhook-routes.ts) shares it without
// loading the ingress.
export const MAX_WEBHOOK_BYTES = 16 * 1024 * 1024;
