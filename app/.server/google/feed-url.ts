import type { Redis } from "ioredis";
import { safeUrl } from "../security";
import { FEED_FILE } from "./feed-parts";
import { readProxyPath } from "../theme";

// The address a merchant pastes into Merchant Center: the feed on the shop's own domain (its primary
// domain once known, else the myshopify one), under the proxy path its storefront last used
// (merchants may rename it). The domain came from Shopify, so the address is checked before the
// admin shows it: null when it fails the rule.

/** `origin`: the storefront's address, `https://shop.example.com` (Shop.primaryDomain holds it so). */
export function googleFeedUrl(origin: string, proxyPath: string): string | null {
  return safeUrl(`${origin.trim().replace(/\/+$/, "")}${proxyPath}/${FEED_FILE}`, "admin.google_feed");
}

export async function shopGoogleFeedUrl(
  deps: { redis: Redis; prefix: string },
  shop: { domain: string; primaryDomain: string | null },
): Promise<string | null> {
  const proxyPath = await readProxyPath(deps.redis, deps.prefix, shop.domain);
  return googleFeedUrl(shop.primaryDomain ?? `https://${shop.domain}`, proxyPath);
}
