import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["app/**/*.test.ts", "workers/**/*.test.ts", "server/**/*.test.ts", "test/**/*.test.ts", "prisma/**/*.test.ts", "extensions/*/src/**/*.test.ts"],
    // The fault drills (worker processes killed, Redis restarted, timing bounds) run on their own,
    // one file at a time, after the rest: see vitest.faults.config.ts.
    exclude: ["**/node_modules/**", "test/faults/**"],
    setupFiles: ["test/helpers/setup-env.ts"],
    globalSetup: ["test/helpers/global-redis.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores on CI machines: more parallel files only add contention.
    maxWorkers: 3,
  },
});
