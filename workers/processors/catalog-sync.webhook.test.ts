import { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { redisUrl } from "../../test/helpers/redis";
import { bulkOperationFinishPayload, startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { startSync } from "../../app/.server/sync/start-sync";
import { parseProgress } from "../../app/.server/sync/sync-runs.repository";
import { runCli } from "../../app/.server/cli/main";
import type { CliIo } from "../../app/.server/cli/command";
import { QueueName, jobIdPart } from "../../app/.server/queues/names";
import { seedOfflineSession } from "../../test/helpers/offline-session";

// The full catalog sync driven as Shopify drives it: bulk_operations/finish, signed, through the
// app's route. Polling is set 10 minutes out, so only the webhook can finish a run here (the
// polling fallback alone is what catalog-sync.test.ts runs on: its store sends no webhooks).
// Then `npm run cli -- sync catalog` on the same stack: its progress bar and final counts.

let s: Stack;
let store: SimulatedStore;
let shopId: string;
const shop = "finish-driven.myshopify.com";
const N = 450;
const POLL_MS = 600_000;

beforeAll(async () => {
  store = await startSimulatedStore({ shop, products: N, seed: 5, bulkDurationMs: 50 });
  s = await startStack("catalog-finish", {
    SHOPIFY_ORIGIN: store.originTemplate,
    BULK_POLL_INTERVAL_MS: String(POLL_MS),
  });
  await s.connect(shop);
  await seedOfflineSession(s.t.db, store, { shop });
  shopId = (await s.web.shops.get(shop)).id;
});
afterAll(async () => {
  await s.close();
  await store.close();
});

const batchRequests = (since: number) =>
  s.emu.control.requests(since).filter((r) => r.path === "/api/acme/products/batch");
const statusPolls = (since: number) =>
  store.requests.slice(since).filter((r) => r.operationName === "BulkOperationStatus");

/** What Shopify does when the store's next bulk operation (after the first `before`) completes. */
async function deliverFinishOfNextOperation(before: number) {
  const op = await eventually(
    async () => store.bulkOperations()[before],
    (o) => o?.status === "COMPLETED",
    30_000,
  );
  const res = await s.deliver("bulk_operations/finish", shop, bulkOperationFinishPayload(op!));
  expect(res.status).toBe(200);
  return op!;
}

function cliIo() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const progress: string[] = [];
  const env = { ...process.env, DATABASE_URL: s.t.url, REDIS_PREFIX: s.prefix, REDIS_URL: redisUrl() };
  const io: CliIo = { out: (l) => stdout.push(l), err: (l) => stderr.push(l), progress: (l) => progress.push(l), env };
  return { io, stdout, stderr, progress };
}

describe("full catalog sync driven by bulk_operations/finish", () => {
  it("GIVEN polling 10 minutes out THEN the finish webhook alone completes the run, and its total is the operation's root object count", async () => {
    const sentSince = s.emu.control.lastRequestSeq();
    const shopifySince = store.requests.length;
    const before = store.bulkOperations().length;
    const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shopId, "catalog");

    const op = await eventually(
      async () => store.bulkOperations()[before],
      (o) => o?.status === "COMPLETED",
      30_000,
    );
    // Shopify is done, no webhook yet: nothing moves the run on.
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("running");

    await deliverFinishOfNextOperation(before);
    const done = await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.status === "completed" || r.status === "failed",
      30_000,
    );
    expect(done.error).toBeNull();
    expect(done.status).toBe("completed");
    expect(done.bulkOperationId).toBe(op!.id);
    expect(op!.rootObjectCount).toBe(N);
    expect(parseProgress(done.progress)).toEqual({
      read: N,
      sent: N,
      created: N,
      updated: 0,
      unchanged: 0,
      failed: 0,
      total: N,
    });
    expect(batchRequests(sentSince)).toHaveLength(Math.ceil(N / 200));
    expect(s.emu.control.state("acme").products).toHaveLength(N);

    // The poll never ran: still waiting its 10 minutes. Shopify was asked once, by the reader, for the file.
    const poll = await Job.fromId(s.web.queues.get(QueueName.sync), `catalog-poll-${jobIdPart(run.id)}-1`);
    expect(await poll!.getState()).toBe("delayed");
    expect(poll!.opts.delay).toBe(POLL_MS);
    expect(statusPolls(shopifySince)).toHaveLength(1);
  }, 60_000);

  it("GIVEN `sync catalog` THEN the CLI shows a progress bar while it waits, and the final counts", async () => {
    for (const p of store.products()) store.updateProduct(p.id, { title: `${p.title} (bar)` });
    // Slow batches, so that the CLI (it looks twice a second) sees the bar part-way.
    s.emu.control.setFaults({ latencyMs: 1_200, paths: "/products/batch" });
    const finish = deliverFinishOfNextOperation(store.bulkOperations().length);
    const { io, stdout, stderr, progress } = cliIo();
    try {
      expect(await runCli(["sync", "catalog", "--shop", shop], io)).toBe(0);
      await finish;
    } finally {
      s.emu.control.clearFaults();
    }
    expect(stderr).toEqual([]);
    expect(stdout[0]).toMatch(/^Started a catalog sync for finish-driven\.myshopify\.com \(run \w+\)\.$/);
    // Before the operation completes there is no total: counters only.
    expect(progress[0]).toMatch(/^\[(pending|running)\] read 0, sent 0, /);
    const partial = progress.filter((l) => /^\[#+-+\] \d+% reading: read \d+, /.test(l));
    expect(partial.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(
      `[${"#".repeat(30)}] 100% completed: read ${N}, sent ${N}, created 0, updated ${N}, unchanged 0, failed 0`,
    );
    expect(stdout.at(-1)).toBe(
      `\nCatalog sync completed: read ${N}, sent ${N}, created 0, updated ${N}, unchanged 0, failed 0`,
    );
    // Plain lines: the CLI's io puts a line feed after each one off a terminal, never a carriage return.
    expect([...stdout, ...progress].some((l) => l.includes("\r"))).toBe(false);
  }, 60_000);
});
