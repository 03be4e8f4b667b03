import type { Logger } from "pino";
import type { Queues } from "../queues";
import { ACTIVE_AFTER_ACTION_MS, REVIEW_WINDOW_MS } from "./cadence";
import { pollScheduleOf, type ScheduleConfig } from "./poll-schedule";

// What makes a shop's back-sync poll at the active pace, noted where it happens. Best effort: the
// order or the shopper's write goes on whatever Redis answered (the shop is polled at the quiet pace
// at worst, and a merchant's moderation asks its own run).

interface ActivityDeps {
  queues: Pick<Queues, "redis" | "prefix" | "ready">;
  config: ScheduleConfig;
  log: Logger;
}

/** An order reached its buyer: the service asks them for a review, reminders follow for weeks. */
export async function noteOrderDelivered(ctx: ActivityDeps, shopId: string, now = Date.now()): Promise<void> {
  await note(ctx, shopId, now + REVIEW_WINDOW_MS, now, "delivered order");
}

/** A shopper wrote a review or a question through the storefront. */
export async function noteShopperWrite(ctx: ActivityDeps, shopId: string, now = Date.now()): Promise<void> {
  await note(ctx, shopId, now + ACTIVE_AFTER_ACTION_MS, now, "shopper's write");
}

async function note(ctx: ActivityDeps, shopId: string, until: number, now: number, what: string) {
  await ctx.queues
    .ready()
    .then(() => pollScheduleOf(ctx.queues, ctx.config).noteActivity(shopId, until, now))
    .catch((e: Error) => ctx.log.warn({ shopId, err: e.message }, `${what} not noted for the back-sync`));
}
