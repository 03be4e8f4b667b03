import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["app/**/*.test.ts", "workers/**/*.test.ts", "test/**/*.test.ts", "prisma/**/*.test.ts"],
    setupFiles: ["test/helpers/setup-env.ts"],
    globalSetup: ["test/helpers/global-redis.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores on CI machines: more parallel files only add contention.
    maxWorkers: 3,
  },
});
