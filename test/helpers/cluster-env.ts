import { inject } from "vitest";
import { resetConfigCache } from "../../app/.server/config";

// The `cluster` project's files run as the app does with REDIS_CLUSTER=1: REDIS_URL names the seed
// nodes of the cluster that global-redis-cluster.ts started (and declares `redisClusterUrl` for).
// It runs after setup-env.ts, which gives each file the environment the process started with.
process.env.REDIS_URL = inject("redisClusterUrl");
process.env.REDIS_CLUSTER = "1";
resetConfigCache();
