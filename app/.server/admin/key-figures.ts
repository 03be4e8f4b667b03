import type { AppContext } from "../context.server";
import { reviewsFor } from "./reviews-client";
import { orMessage } from "./service-errors";
import type { UiMessage } from "../../shared/messages";

// The home page's key figures for the session's shop: what the reviews service holds (published
// reviews and their average, reviews of the last 30 days, the moderation queue, questions waiting
// for an answer), read only through documented List reviews / List questions totals, and what the
// app sent (orders, each a review request the service may send). The service's figures can fail on
// their own: the page then says so and still shows the app's.

export const RECENT_DAYS = 30;
const DAY_MS = 86_400_000;

/** The average of star ratings from how many reviews have each (index 0 = one star); null with none. */
export function averageRating(countsByStars: readonly number[]): number | null {
  const total = countsByStars.reduce((sum, n) => sum + n, 0);
  if (!total) return null;
  return countsByStars.reduce((sum, n, i) => sum + n * (i + 1), 0) / total;
}

/** The first day (UTC, `YYYY-MM-DD`) of the last `days` days up to `now`, as List reviews' `from` takes it. */
export function sinceDay(now: Date, days = RECENT_DAYS): string {
  return new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
}

export interface ServiceFigures {
  published: number;
  average: number | null;
  recent: number;
  pending: number;
  questions: number;
}

export type KeyFigures =
  | { connected: false; ordersSent: number }
  | {
      connected: true;
      ordersSent: number;
      since: string;
      service: { ok: true; value: ServiceFigures } | { ok: false; error: UiMessage };
    };

export async function keyFigures(ctx: AppContext, domain: string, now = new Date()): Promise<KeyFigures> {
  const shop = await ctx.shops.ensure(domain);
  const ordersSent = await ctx.db.orderState.count({ where: { shopId: shop.id, sentAt: { not: null } } });
  if (!(await ctx.shops.status(shop.domain)).connected) return { connected: false, ordersSent };
  const since = sinceDay(now);
  const service = await orMessage(async () => {
    const admin = (await reviewsFor(ctx, shop.domain)).admin;
    const total = async (p: Promise<{ total: number }>) => (await p).total;
    // One total per star count gives both the number and the exact average of published reviews.
    const [byStars, recent, pending, questions] = await Promise.all([
      Promise.all([1, 2, 3, 4, 5].map((rating) => total(admin.listReviews({ status: "published", rating })))),
      total(admin.listReviews({ from: since })),
      total(admin.listReviews({ status: "pending" })),
      total(admin.listQuestions({ status: "sent" })),
    ]);
    return {
      published: byStars.reduce((a, b) => a + b, 0),
      average: averageRating(byStars),
      recent,
      pending,
      questions,
    };
  });
  return { connected: true, ordersSent, since, service };
}
