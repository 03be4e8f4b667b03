import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { runForJob } from "../outcome-adapter";
import { pollNumberOf, runStepOf } from "../run-step";
import {
  catalogPoll as pollCatalog,
  catalogRead as readCatalog,
  catalogStart as startCatalog,
} from "../../app/.server/catalog";

// sync/"catalog-start", "catalog-poll", "catalog-read": the full catalog sync
// (app/.server/catalog/catalog-sync.ts). The service's 429 puts the read back for its Retry-After.

export async function catalogStart(job: Job, ctx: WorkerContext, token?: string) {
  const step = runStepOf(job, token);
  return runForJob(job, token, () => startCatalog(ctx, step));
}

export async function catalogPoll(job: Job, ctx: WorkerContext, token?: string) {
  const step = runStepOf(job, token);
  return runForJob(job, token, () => pollCatalog(ctx, step, pollNumberOf(job)));
}

export async function catalogRead(job: Job, ctx: WorkerContext, token?: string) {
  const step = runStepOf(job, token);
  return runForJob(job, token, () => readCatalog(ctx, step));
}
