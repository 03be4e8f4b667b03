import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import type { WebhookJob } from "../../app/.server/jobs";

/** Handles one verified webhook delivery of one topic. Throwing means "retry"; see errors.ts. */
export type TopicHandler = (delivery: WebhookJob, ctx: WorkerContext, job: Job, token?: string) => Promise<void>;

/** Handles one job of a queue other than webhooks, dispatched by job name. */
export type JobHandler = (job: Job, ctx: WorkerContext, token?: string) => Promise<unknown>;
