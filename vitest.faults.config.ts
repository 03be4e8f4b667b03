import { defineConfig } from "vitest/config";

// The fault drills: real worker processes killed with SIGKILL, a private Redis killed and restarted,
// the service failing for a while, and bounds on how long recovery and fairness take. They run one
// file at a time, after the rest of the suite, so that their bounds measure the system rather than
// the other test files sharing two cores.
export default defineConfig({
  test: {
    include: ["test/faults/**/*.test.ts"],
    setupFiles: ["test/helpers/setup-env.ts"],
    globalSetup: ["test/helpers/global-redis.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: false,
  },
});
