import type { AppContext } from "../context.server";
import { shopAppStatus, type ShopAppStatus } from "../shopapp/status";

/**
 * The Shop app section of the channels page: the syndication's own figures in Redis. No Admin API
 * call on a page load (Shopify's count of metaobjects stays unknown here): opening the page costs
 * the shop's API bucket nothing.
 */
export async function shopAppChannel(ctx: AppContext, domain: string): Promise<ShopAppStatus> {
  const shop = await ctx.shops.ensure(domain);
  return shopAppStatus({ redis: ctx.queues.redis, prefix: ctx.config.REDIS_PREFIX, shopId: shop.id });
}
