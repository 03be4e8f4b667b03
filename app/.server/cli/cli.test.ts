import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { deletePrefix, uniquePrefix } from "../../../test/helpers/redis";
import { runCli } from "./main";
import type { CliIo } from "./command";

let t: TestDb;
// `connect` queues the first syncs: under a prefix of this file's own, removed afterwards.
const prefix = uniquePrefix("cli");
beforeAll(async () => {
  t = await createTestDb("sqlite");
});
afterAll(async () => {
  await t.drop();
  await deletePrefix(prefix);
});

function io(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (l) => stdout.push(l),
    err: (l) => stderr.push(l),
    env: { ...process.env, DATABASE_URL: t.url, REDIS_PREFIX: prefix },
  };
}

const connectArgs = [
  "connect",
  "--shop",
  "cli-shop.myshopify.com",
  "--customer",
  "cli-customer",
  "--client-id",
  "cid-1",
  "--client-secret",
  "sk_live_abcdefgh12345",
];

describe("operator CLI", () => {
  it("GIVEN connect THEN the shop is stored and the secret never printed", async () => {
    const o = io();
    expect(await runCli(connectArgs, o)).toBe(0);
    expect(o.stdout.join("\n")).toContain("Connected cli-shop.myshopify.com to customer cli-customer");
    expect(o.stdout.join("\n")).not.toContain("sk_live_abcdefgh12345");
  });

  it("GIVEN status THEN the connection shows with the secret masked", async () => {
    const o = io();
    expect(await runCli(["status", "--shop", "cli-shop.myshopify.com"], o)).toBe(0);
    const text = o.stdout.join("\n");
    expect(text).toMatch(/Client secret:\s+sk••••45/);
    expect(text).toMatch(/Customer key:\s+cli-customer/);
    expect(text).not.toContain("abcdefgh");
  });

  it("GIVEN disconnect THEN status shows it unconnected", async () => {
    expect(await runCli(["disconnect", "--shop", "cli-shop.myshopify.com"], io())).toBe(0);
    const o = io();
    await runCli(["status", "--shop", "cli-shop.myshopify.com", "--json"], o);
    expect(JSON.parse(o.stdout.join("\n"))).toMatchObject({ connected: false, clientSecret: "(none)" });
  });

  it.each([
    [["connect", "--shop", "x.myshopify.com"], /--customer is required/],
    [["connect", ...connectArgs.slice(1, 2), "not a domain", ...connectArgs.slice(3)], /domain: must be a shop domain/],
    [["status", "--shop", "a.myshopify.com", "--bogus"], /Unknown option '--bogus'/],
    [["frobnicate"], /Unknown command: frobnicate/],
    [["status"], /--shop is required/],
  ])("GIVEN bad input %j THEN a clear error and a non-zero exit", async (argv, message) => {
    const o = io();
    expect(await runCli(argv, o)).toBe(2);
    expect(o.stderr.join("\n")).toMatch(message);
  });

  it("GIVEN an unknown shop THEN status says so and exits 1", async () => {
    const o = io();
    expect(await runCli(["status", "--shop", "nobody.myshopify.com"], o)).toBe(1);
    expect(o.stderr.join("\n")).toContain("No shop nobody.myshopify.com");
  });

  it.each(["connect", "status", "disconnect"])("GIVEN %s --help THEN its options are listed", async (name) => {
    const o = io();
    expect(await runCli([name, "--help"], o)).toBe(0);
    expect(o.stdout.join("\n")).toContain(`Usage: npm run cli -- ${name}`);
    expect(o.stdout.join("\n")).toContain("--shop");
  });

  it("GIVEN the real npm script THEN it runs the same CLI and exits non-zero on bad input", () => {
    const ok = spawnSync("npm", ["run", "--silent", "cli", "--", "--help"], { encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain("Commands:");
    const bad = spawnSync("npm", ["run", "--silent", "cli", "--", "status"], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--shop is required");
  });
});
