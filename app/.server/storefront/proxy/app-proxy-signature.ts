import { createHmac, timingSafeEqual } from "node:crypto";

// How Shopify signs a request it forwards through an app proxy (shopify.dev, "Authenticate app
// proxies"): every query parameter but `signature`, sorted by key, each as `key=value` with the
// values of a repeated key joined by commas, concatenated with no separator, then hex HMAC-SHA256
// with the app's secret. The signing side is for the local storefront and for tests that play
// Shopify; the checking side (appProxySigned, below) judges exactly as the library's
// `authenticate.public.appProxy` does (app-proxy-signature.test.ts holds the two side by side).

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

// ---- the check ----
//
// Done here, not by the app's one Shopify library instance: its `authenticate.public.appProxy`
// loads the shop's offline session on every proxied request (a database read, over half the cost
// of a cached read at 500 requests/s) to offer an Admin client the storefront routes never use.
// Every rule below is the library's (@shopify/shopify-api's app-proxy HMAC validation, and the
// Remix package's retries with `_data`), so that the answers stay the same.

// Keys the library refuses to see twice.
const SINGLE_VALUE_KEYS = new Set(["hmac", "shop", "signature", "timestamp"]);
const CLOCK_TOLERANCE_SECONDS = 90;

/** One value per key, a repeated key's values joined by commas; null when a single-value key repeats. */
function byKey(params: URLSearchParams): Map<string, string> | null {
  const out = new Map<string, string>();
  for (const [key, value] of params) {
    const had = out.get(key);
    if (had === undefined) out.set(key, value);
    else if (SINGLE_VALUE_KEYS.has(key)) return null;
    else out.set(key, `${had},${value}`);
  }
  return out;
}

function sameText(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given, "utf8"), Buffer.from(expected, "utf8")];
  return a.length === b.length && timingSafeEqual(a, b);
}

function signedParams(params: URLSearchParams, secret: string, nowSeconds: number): boolean {
  const query = byKey(params);
  const signature = query?.get("signature");
  if (!query || !signature) return false;
  const timestamp = Number(query.get("timestamp") ?? NaN);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > CLOCK_TOLERANCE_SECONDS) return false;
  // The library sorts with localeCompare (not by code unit) and leaves `hmac` out as well.
  const signed = [...query]
    .filter(([key]) => key !== "signature" && key !== "hmac")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
    .join("");
  return sameText(signature, createHmac("sha256", secret).update(signed, "utf8").digest("hex"));
}

const SHOP_DOMAINS = "(myshopify\\.com|shopify\\.com|myshopify\\.io|shop\\.dev)";
const SHOP = new RegExp(`^[a-zA-Z0-9][a-zA-Z0-9-_]*\\.${SHOP_DOMAINS}[/]*$`);
const SHOP_ADMIN = new RegExp(`^admin\\.${SHOP_DOMAINS}/store/([a-zA-Z0-9][a-zA-Z0-9-_]*)$`);

/** Whether `shop` is a shop as the library accepts one: a shop domain, or a shop's admin URL. */
export function isShopDomain(shop: string | null): boolean {
  return shop !== null && (SHOP.test(shop) || SHOP_ADMIN.test(shop));
}

/**
 * Whether Shopify signed this proxied URL with `secret`, within 90 s of `nowSeconds`. As the
 * library: an empty `index` parameter is left out; failing that, the query is tried again with the
 * `_data` parameter Remix's data requests carry (the route's, then its index route's).
 */
export function appProxySigned(url: URL, secret: string, nowSeconds = Math.trunc(Date.now() / 1000)): boolean {
  let params = new URLSearchParams(url.search);
  if (!params.get("index")) params.delete("index");
  if (signedParams(params, secret, nowSeconds)) return true;
  const route = url.pathname.replace(/^\//, "").replace(/\/$/, "").replaceAll("/", ".");
  const data = `routes%2F${route}`;
  params = new URLSearchParams(`?_data=${data}&${params.toString().replace(/^\?/, "")}`);
  if (signedParams(params, secret, nowSeconds)) return true;
  params = new URLSearchParams(`?_data=${data}._index&${url.search.replace(/^\?/, "")}`);
  return signedParams(params, secret, nowSeconds);
}
