import type { Redis } from "ioredis";
import { DEFAULT_PROXY_PATH } from "./shop-data";

// Where a shop's storefront reaches the app proxy. Merchants can rename the prefix and subpath, so
// the path is learnt from `path_prefix` of each signed request and kept per shop in Redis; the
// back-sync writes it into the shop data metafield (`proxyPath`) so the blocks never hard-code it.

const key = (prefix: string, shop: string) => `${prefix}:proxy:path:${shop}`;
const PATH = /^\/(apps|a|community|tools)\/[A-Za-z0-9_-]{1,30}$/;

export function createProxyPathStore(redis: Redis, prefix: string) {
  // Last value written per shop in this process: a request costs no write unless the path changed.
  const written = new Map<string, string>();
  return {
    async record(shop: string, pathPrefix: string): Promise<void> {
      if (!PATH.test(pathPrefix) || written.get(shop) === pathPrefix) return;
      await redis.set(key(prefix, shop), pathPrefix);
      written.set(shop, pathPrefix);
      if (written.size > 10_000) written.delete(written.keys().next().value as string);
    },
  };
}

/** The path the shop's storefront last used, or `/apps/reviews` before any proxied request. */
export async function readProxyPath(redis: Redis, prefix: string, shop: string): Promise<string> {
  const value = await redis.get(key(prefix, shop));
  return value && PATH.test(value) ? value : DEFAULT_PROXY_PATH;
}
