import { z } from "zod";

// What the ingress stores in Redis for one webhook delivery, and the only thing a processor reads.
// No secrets: Shopify's payload and headers as delivered (the payload may hold buyer contact data,
// which is why completed jobs are removed on a bounded schedule).
export const webhookJobSchema = z.object({
  deliveryId: z.string().min(1),
  eventId: z.string().nullable(),
  topic: z.string().min(1), // Shopify's form: "products/update"
  shop: z.string().min(1),
  apiVersion: z.string().nullable(),
  triggeredAt: z.string().nullable(),
  receivedAt: z.string(),
  payload: z.unknown(),
});

export type WebhookJob = z.infer<typeof webhookJobSchema>;

/**
 * What a topic's use case reads of a delivery: the shop it is for, its topic, the payload as sent,
 * and the headers that order its change against others (X-Shopify-Triggered-At, X-Shopify-Event-Id;
 * see mapping/change-version.ts).
 */
export type TopicDelivery = Pick<WebhookJob, "shop" | "topic" | "payload"> &
  Partial<Pick<WebhookJob, "triggeredAt" | "eventId">>;

/** The delivery could not be read (malformed JSON after a valid signature): recorded, never retried. */
export const UNREADABLE_PAYLOAD = "__unreadable__";
