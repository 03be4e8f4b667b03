import type { Logger } from "pino";
import type { Queues } from "../queues";
import { ORDER_REVIEW_CHANCE } from "./cadence";
import { pollScheduleOf, type ScheduleConfig } from "./poll-schedule";

// Changes the app sees itself, noted where they happen (cadence.ts): a shopper's review or question
// is a change at the service, polled for at once; a delivered order only makes a review a little
// more likely. Best effort: the order or the shopper's write goes on whatever Redis answered (the
// shop is polled at its own pace at worst, and a merchant's moderation asks its own run).

interface ActivityDeps {
  queues: Pick<Queues, "redis" | "prefix" | "ready">;
  config: ScheduleConfig;
  log: Logger;
}

/**
 * An order reached its buyer: the service asks them for a review, and about one in ten writes one,
 * over the following weeks. A small bump of the shop's rate, no poll of its own.
 */
export async function noteOrderDelivered(ctx: ActivityDeps, shopId: string, now = Date.now()): Promise<void> {
  await note(ctx, shopId, ORDER_REVIEW_CHANCE, false, now, "delivered order");
}

/** A shopper wrote a review or a question through the storefront: polled at once, the shop active. */
export async function noteShopperWrite(ctx: ActivityDeps, shopId: string, now = Date.now()): Promise<void> {
  await note(ctx, shopId, 1, true, now, "shopper's write");
}

async function note(ctx: ActivityDeps, shopId: string, changes: number, pollNow: boolean, now: number, what: string) {
  await ctx.queues
    .ready()
    .then(() => pollScheduleOf(ctx.queues, ctx.config).noteChanges(shopId, changes, now, { pollNow }))
    .catch((e: Error) => ctx.log.warn({ shopId, err: e.message }, `${what} not noted for the back-sync`));
}
