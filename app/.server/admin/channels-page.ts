import type { AppContext } from "../context.server";
import { shopAppStatus } from "../shopapp";
import { googleChannel } from "./google-channel";

/**
 * The "Google Shopping & Shop app" page: the shop's row made or read once (a first visit may come
 * before any other page made it), then both sections from what is stored. The Shop app figures are
 * the syndication's own in Redis, with no Admin API call: opening the page costs the shop's API
 * bucket nothing (Shopify's count of metaobjects stays unknown here).
 */
export async function channelsPage(ctx: AppContext, domain: string, params: URLSearchParams) {
  const shop = await ctx.shops.ensure(domain);
  const [google, shopApp] = await Promise.all([
    googleChannel(ctx, shop, params),
    shopAppStatus({ redis: ctx.queues.redis, prefix: ctx.config.REDIS_PREFIX, shopId: shop.id }),
  ]);
  return { google, shopApp };
}
