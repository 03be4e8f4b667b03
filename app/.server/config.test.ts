import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";
import { seedNodes } from "./queues/connection";

const valid = {
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://app.example.com/",
  REVIEWS_API_URL: "https://api.reviews.example/v1/",
  REVIEWS_AUTH_URL: "https://auth.reviews.example",
  REVIEWS_RATE_URL: "https://rate.reviews.example",
  ENCRYPTION_KEY: "ab".repeat(32),
};

describe("configuration", () => {
  it("GIVEN a complete environment THEN defaults fill the rest and URLs lose trailing slashes", () => {
    const c = parseConfig(valid);
    expect(c.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(c.DATABASE_URL).toBe("file:./prisma/dev.sqlite");
    expect(c.REVIEWS_API_URL).toBe("https://api.reviews.example/v1");
    expect(c.SHOPIFY_APP_URL).toBe("https://app.example.com");
  });

  it.each([
    ["SHOPIFY_API_KEY", undefined, /SHOPIFY_API_KEY is required/],
    ["REVIEWS_API_URL", "not a url", /REVIEWS_API_URL must be an http\(s\) URL/],
    ["REVIEWS_AUTH_URL", "", /REVIEWS_AUTH_URL is required/],
    ["ENCRYPTION_KEY", "short", /ENCRYPTION_KEY must be 32 bytes/],
    ["REDIS_URL", "http://localhost", /REDIS_URL must start with redis:/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL must start with file:/],
  ])("GIVEN %s=%s THEN the error names the variable", (name, value, message) => {
    const env = { ...valid, [name]: value };
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });

  it("GIVEN REDIS_CLUSTER THEN REDIS_URL may name several seed nodes; without it, one URL only", () => {
    const seeds = "redis://:secret@127.0.0.1:7000, redis://127.0.0.1:7001,redis://[::1]:7002";
    expect(parseConfig(valid).REDIS_CLUSTER).toBe(false);
    expect(parseConfig({ ...valid, REDIS_CLUSTER: "false" }).REDIS_CLUSTER).toBe(false);
    expect(parseConfig({ ...valid, REDIS_CLUSTER: "1", REDIS_URL: seeds })).toMatchObject({
      REDIS_CLUSTER: true,
      REDIS_URL: seeds,
    });
    expect(seedNodes(seeds)).toEqual([
      { host: "127.0.0.1", port: 7000 },
      { host: "127.0.0.1", port: 7001 },
      { host: "::1", port: 7002 },
    ]);
    expect(() => parseConfig({ ...valid, REDIS_URL: seeds })).toThrow(
      "Configuration error: REDIS_URL holds several URLs: set REDIS_CLUSTER=1 for a Redis Cluster, else give one URL",
    );
    expect(() => parseConfig({ ...valid, REDIS_CLUSTER: "yes" })).toThrow(/REDIS_CLUSTER must be true or false/);
    expect(() => parseConfig({ ...valid, REDIS_CLUSTER: "1", REDIS_URL: "redis://127.0.0.1:7000,http://x" })).toThrow(
      /REDIS_URL must start with redis:/,
    );
  });

  it("GIVEN a process started with a bad variable THEN it stops at start with one line naming it", () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", ...valid, REVIEWS_RATE_URL: "ftp://nope" };
    const run = spawnSync("npx", ["tsx", "workers/index.ts"], {
      env: env as NodeJS.ProcessEnv,
      encoding: "utf8",
      // npx and tsx starting a worker: 15 s at a load of 15 on two cores, killed at 30 s beside a full run.
      timeout: 50_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr
      .trim()
      .split("\n")
      .filter((l) => !l.includes("npm warn"));
    expect(lines).toEqual([
      "Configuration error: REVIEWS_RATE_URL must be an http(s) URL ({rate_url} of the reviews service)",
    ]);
  });
});
