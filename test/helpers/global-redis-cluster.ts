import type { TestProject } from "vitest/node";
import { startRedisCluster, type LocalCluster } from "./redis-cluster";

// The `cluster` project's Redis: one private three-master cluster for all its files, started once.
// Its seed URL goes to the files through vitest's provide/inject (cluster-env.ts), not through
// process.env: the fault drills run in the same vitest run on the single Redis of REDIS_URL.

declare module "vitest" {
  export interface ProvidedContext {
    redisClusterUrl: string;
  }
}

let cluster: LocalCluster | undefined;

export async function setup(project: TestProject) {
  cluster = await startRedisCluster();
  project.provide("redisClusterUrl", cluster.url);
}

export async function teardown() {
  await cluster?.stop();
}
