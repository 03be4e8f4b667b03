import type { ChildProcess } from "node:child_process";
import { redisAnswers, startPrivateRedis } from "../../sandbox/dev-local/local-redis";

// Tests run on real Redis: REDIS_URL when it answers, else a private redis-server on a free port.
// Each test file then works under a key prefix of its own (see redis.ts), so a shared Redis is safe.

let child: ChildProcess | undefined;

export async function setup() {
  const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  if (await redisAnswers(url)) {
    process.env.REDIS_URL = url;
    return;
  }
  const local = await startPrivateRedis();
  child = local.child;
  process.env.REDIS_URL = local.url;
}

export async function teardown() {
  child?.kill("SIGTERM");
}
