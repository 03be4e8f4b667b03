import { createHmac } from "node:crypto";

// How Shopify signs a request it forwards through an app proxy (shopify.dev, "Authenticate app
// proxies"): every query parameter but `signature`, sorted by key, each as `key=value` with the
// values of a repeated key joined by commas, concatenated with no separator, then hex HMAC-SHA256
// with the app's secret. The app verifies with the library (`authenticate.public.appProxy`); this
// is the signing side, for the local storefront and for tests that play Shopify.

export type ProxyParams = Array<[string, string]>;

/** The string Shopify signs: sorted `key=value` pairs, repeated keys joined by commas. */
export function canonicalProxyQuery(params: URLSearchParams | ProxyParams): string {
  const byKey = new Map<string, string[]>();
  for (const [key, value] of params) {
    if (key === "signature") continue;
    byKey.set(key, [...(byKey.get(key) ?? []), value]);
  }
  return [...byKey.keys()]
    .sort()
    .map((key) => `${key}=${byKey.get(key)!.join(",")}`)
    .join("");
}

export function appProxySignature(params: URLSearchParams | ProxyParams, secret: string): string {
  return createHmac("sha256", secret).update(canonicalProxyQuery(params), "utf8").digest("hex");
}

export interface ProxyIdentity {
  shop: string;
  /** Empty when nobody is logged in, as Shopify sends it. */
  loggedInCustomerId: string;
  /** Where the storefront reached the proxy, e.g. `/apps/reviews`. */
  pathPrefix: string;
}

/**
 * The query of a request as Shopify forwards it: the shopper's own parameters (any `shop`,
 * `signature` and the like they sent are dropped: Shopify's values win), then Shopify's.
 */
export function signProxyQuery(
  shopperQuery: URLSearchParams,
  identity: ProxyIdentity,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): URLSearchParams {
  const reserved = new Set(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"]);
  const out = new URLSearchParams();
  for (const [k, v] of shopperQuery) if (!reserved.has(k)) out.append(k, v);
  out.append("shop", identity.shop);
  out.append("logged_in_customer_id", identity.loggedInCustomerId);
  out.append("path_prefix", identity.pathPrefix);
  out.append("timestamp", String(nowSeconds));
  out.append("signature", appProxySignature(out, secret));
  return out;
}
