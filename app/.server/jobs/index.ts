// The job catalogue: every job's name, payload and queue options, and what a job's use case may return.
// Other folders import from here only; the rest of the folder is private to it.
export { UNREADABLE_PAYLOAD, webhookJobSchema } from "./delivery";
export type { TopicDelivery, WebhookJob } from "./delivery";
export {
  GiveUp,
  RetryLater,
  honouringServiceLimit,
  outcomeOf,
  serviceLimitAsRetry,
  shopifyThrottleAsRetry,
} from "./outcome";
export type { Outcome } from "./outcome";
export type { JobServices } from "./services";
export * from "./catalogue";
export * from "./enqueue";
