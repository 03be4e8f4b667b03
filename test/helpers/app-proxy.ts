import { signProxyQuery } from "../../app/.server/storefront/proxy/app-proxy-signature";

// Requests as Shopify forwards them through the app proxy: the shopper's path and query under
// `/apps/reviews`, plus shop, logged_in_customer_id, path_prefix, timestamp and signature.

export interface ProxyRequestInput {
  shop: string;
  /** Path after the proxy prefix, e.g. `/products/123/reviews`. */
  path: string;
  query?: Record<string, string> | URLSearchParams;
  customerId?: string;
  pathPrefix?: string;
  secret?: string;
  ip?: string;
  /** Seconds; default now. */
  timestamp?: number;
  appUrl?: string;
}

export function signedProxyRequest(input: ProxyRequestInput): Request {
  const secret = input.secret ?? process.env.SHOPIFY_API_SECRET ?? "test-api-secret";
  const shopper = input.query instanceof URLSearchParams ? input.query : new URLSearchParams(input.query ?? {});
  const q = signProxyQuery(
    shopper,
    { shop: input.shop, loggedInCustomerId: input.customerId ?? "", pathPrefix: input.pathPrefix ?? "/apps/reviews" },
    secret,
    input.timestamp,
  );
  const url = `${input.appUrl ?? "https://reviews-app.test"}/apps/reviews${input.path}?${q}`;
  return new Request(url, {
    headers: { "x-forwarded-for": input.ip ?? "203.0.113.7", "x-forwarded-host": input.shop },
  });
}
