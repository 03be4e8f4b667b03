import type { AppContext } from "../context.server";
import { shopReviewsClients } from "../shops";
import type { ReviewsClient } from "../reviews";

// The session shop's reviews client for an admin page: the same client, token cache and 429 pause
// the workers use (shops/reviews-for-shop.ts). Only ever built for the shop of the request's
// session, so a page can reach no other account.

let clients: { ctx: AppContext; get: (domain: string) => Promise<ReviewsClient> } | undefined;

export function reviewsFor(ctx: AppContext, domain: string): Promise<ReviewsClient> {
  if (clients?.ctx !== ctx)
    clients = {
      ctx,
      get: shopReviewsClients({ config: ctx.config, shops: ctx.shops, redis: ctx.queues.redis, log: ctx.log }),
    };
  return clients.get(domain);
}
