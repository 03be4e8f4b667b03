import { DelayedError, type Job } from "bullmq";
import type { WorkerContext } from "../context";
import { UNREADABLE_PAYLOAD, webhookJobSchema, type WebhookJob } from "../../app/.server/jobs";
import { PermanentJobError } from "./errors";
import type { TopicHandler } from "./registry";

// Every webhook delivery passes here: recorded (a trail an operator can read), deduplicated a second
// time against that record (the Redis dedupe key expires; the record does not), then handed to the
// handler of its topic.

export function createWebhookProcessor(handlers: Record<string, TopicHandler>) {
  return async function processWebhook(job: Job, ctx: WorkerContext, token?: string): Promise<string> {
    const parsed = webhookJobSchema.safeParse(job.data);
    if (!parsed.success) throw new PermanentJobError(`malformed webhook job: ${parsed.error.issues[0]?.message}`);
    const delivery = parsed.data;
    const log = ctx.log.child({ shop: delivery.shop, topic: delivery.topic, delivery: delivery.deliveryId });

    // Most deliveries are for a known shop (cached) and run for the first time: the ingress let
    // only one job per webhook id in (for three days, longer than Shopify retries), so only a job
    // that ran before — retried, or taken up again after its worker died — can find its own record.
    const shop = (await ctx.cachedShop(delivery.shop)) ?? (await ctx.shops.ensure(delivery.shop).catch(() => null));
    if (!shop) return record(ctx, null, delivery, "failed", "unknown shop domain");

    if (ranBefore(job)) {
      const existing = await ctx.db.webhookDelivery.findUnique({
        where: { id: delivery.deliveryId },
        select: { status: true },
      });
      if (existing?.status === "done") return "duplicate";
    }

    if (delivery.payload === UNREADABLE_PAYLOAD)
      return record(ctx, shop.id, delivery, "failed", "malformed JSON payload");
    const handler = handlers[delivery.topic];
    if (!handler) return record(ctx, shop.id, delivery, "failed", `no handler for topic ${delivery.topic}`);

    try {
      await handler(delivery, ctx, job, token);
      // Lifecycle and compliance topics change the shop row: the next job reads it afresh.
      if (delivery.topic.startsWith("app/") || delivery.topic.endsWith("/redact")) ctx.forgetShop(delivery.shop);
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof DelayedError) throw error;
      if (error instanceof PermanentJobError) {
        log.warn({ err: message }, "delivery failed permanently");
        return record(ctx, shop.id, delivery, "failed", message);
      }
      // Retried by the queue; the record shows why meanwhile.
      await ctx.deliveries
        .record({
          id: delivery.deliveryId,
          shopId: shop.id,
          topic: delivery.topic,
          eventId: delivery.eventId,
          status: "queued",
          error: message,
          processedAt: null,
        })
        .catch(() => undefined);
      throw error;
    }
    return record(ctx, shop.id, delivery, "done", null);
  };
}

function ranBefore(job: Job): boolean {
  return job.attemptsMade > 0 || job.stalledCounter > 0 || (job.attemptsStarted ?? 0) > 1;
}

async function record(
  ctx: WorkerContext,
  shopId: string | null,
  delivery: WebhookJob,
  status: "done" | "failed",
  error: string | null,
): Promise<string> {
  if (status === "failed") ctx.log.warn({ shop: delivery.shop, topic: delivery.topic, error }, "delivery failed");
  if (shopId) {
    try {
      await ctx.deliveries.record({
        id: delivery.deliveryId,
        shopId,
        topic: delivery.topic,
        eventId: delivery.eventId,
        status,
        error,
        processedAt: new Date(),
      });
    } catch (e) {
      // shop/redact has just removed the shop and its trail: nothing is left to record against.
      if (await ctx.db.shop.count({ where: { id: shopId } })) throw e;
    }
  }
  return status;
}
