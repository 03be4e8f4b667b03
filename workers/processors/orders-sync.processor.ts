import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { runForJob } from "../outcome-adapter";
import { pollNumberOf, runStepOf } from "../run-step";
import {
  ordersPoll as pollOrders,
  ordersRead as readOrders,
  ordersStart as startOrders,
} from "../../app/.server/orders";

// sync/"orders-start", "orders-poll", "orders-read": the orders backfill and reconciliation
// (app/.server/orders/orders-sync.ts). A read that waits for the catalog sync, or got further and
// then met a transient failure, goes back to the delayed set without spending an attempt.

export async function ordersStart(job: Job, ctx: WorkerContext, token?: string) {
  const step = runStepOf(job, token);
  return runForJob(job, token, () => startOrders(ctx, step));
}

export async function ordersPoll(job: Job, ctx: WorkerContext, token?: string) {
  const step = runStepOf(job, token);
  return runForJob(job, token, () => pollOrders(ctx, step, pollNumberOf(job)));
}

export async function ordersRead(job: Job, ctx: WorkerContext, token?: string) {
  const step = runStepOf(job, token);
  return runForJob(job, token, () => readOrders(ctx, step));
}
