import { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { startSync } from "../../app/.server/sync/start-sync";
import { parseProgress } from "../../app/.server/sync/sync-runs.repository";
import { QueueName, jobIdPart } from "../../app/.server/queues/names";
import { catalogRead } from "./catalog-sync.processor";
import { seedOfflineSession } from "../../test/helpers/offline-session";

// Full catalog sync: bulk operation on a simulated store, streamed, mapped and sent to the emulator.
let s: Stack;
let store: SimulatedStore;
const shop = "full-sync.myshopify.com";
const N = 450;

beforeAll(async () => {
  store = await startSimulatedStore({ shop, products: N, seed: 7, bulkDurationMs: 50 });
  s = await startStack("catalog-full", { SHOPIFY_ORIGIN: store.originTemplate });
  await s.connect(shop);
  await seedOfflineSession(s.t.db, store, { shop });
});
afterAll(async () => {
  await s.close();
  await store.close();
});

const batchRequests = (since: number) =>
  s.emu.control.requests(since).filter((r) => r.path === "/api/acme/products/batch");
const skusOf = (r: { body: unknown }) => (r.body as { products: { sku: string }[] }).products.map((p) => p.sku);

async function runToEnd() {
  const shopRow = await s.web.shops.get(shop);
  const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shopRow.id, "catalog");
  const done = await eventually(
    () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
    (r) => r.status === "completed" || r.status === "failed",
    60_000,
  );
  expect(done.error).toBeNull();
  return { run: done, progress: parseProgress(done.progress) };
}

describe("full catalog sync", () => {
  it("GIVEN a store of 450 products THEN every product is sent in ceil(N/200) requests and progress says so", async () => {
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    const { progress } = await runToEnd();
    expect(batchRequests(since)).toHaveLength(Math.ceil(N / 200));
    expect(s.emu.control.state("acme").products).toHaveLength(N);
    expect(progress).toMatchObject({ read: N, sent: N, created: N, failed: 0, total: N });
  });

  it("GIVEN nothing changed since THEN a second run reads everything and sends nothing", async () => {
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    const { progress } = await runToEnd();
    expect(batchRequests(since)).toHaveLength(0);
    expect(progress).toMatchObject({ read: N, sent: 0, unchanged: N });
  });

  it("GIVEN the run fails between batches THEN the retry resumes after the last accepted batch and sends nothing twice", async () => {
    for (const p of store.products()) store.updateProduct(p.id, { title: `${p.title} (2027)` });
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    // Every second catalog request fails: each retry must start at the batch that failed.
    s.emu.control.setFaults({ errorRate: 0.5, errorStatus: 503, paths: "/products/batch" });
    const { progress } = await runToEnd();
    s.emu.control.clearFaults();
    const requests = batchRequests(since);
    expect(requests.filter((r) => r.status === 503).length).toBeGreaterThan(0);
    const accepted = requests.filter((r) => r.status === 200).flatMap(skusOf);
    expect(accepted).toHaveLength(N);
    expect(new Set(accepted).size).toBe(N);
    expect(progress).toMatchObject({ read: N, sent: N, updated: N });
    expect(s.emu.control.state("acme").products.every((p) => p.name.endsWith("(2027)"))).toBe(true);
  });

  it("GIVEN a second runner on the run (BullMQ gave the job to another worker while the first was paused) THEN one steps aside after at most one batch", async () => {
    for (const p of store.products()) store.updateProduct(p.id, { title: `${p.title} (paused)` });
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    // Slow batches, so that the second runner starts while the first is still at it.
    s.emu.control.setFaults({ latencyMs: 300, paths: "/products/batch" });
    const shopRow = await s.web.shops.get(shop);
    const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, shopRow.id, "catalog");
    await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.status === "reading",
      30_000,
    );
    const job = await Job.fromId(s.web.queues.get(QueueName.sync), `catalog-read-${jobIdPart(run.id)}`);
    // The paused runner: same job, its lock token gone.
    const second = await catalogRead(job!, s.worker);
    const done = await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.status === "completed",
      60_000,
    );
    s.emu.control.clearFaults();
    expect(second).not.toEqual({ done: true }); // it did run beside the first
    const requests = batchRequests(since);
    expect(requests.length).toBeLessThanOrEqual(Math.ceil(N / 200) + 1);
    expect(new Set(requests.flatMap(skusOf)).size).toBe(N);
    expect(parseProgress(done.progress)).toMatchObject({ read: N, sent: N, updated: N, failed: 0 });
    expect(s.emu.control.state("acme").products.every((p) => p.name.endsWith("(paused)"))).toBe(true);
  });

  it("GIVEN a product the mapper cannot use THEN the sync goes on, and the product is counted failed and listed by `sync errors`", async () => {
    const odd = store.addProduct({ title: "Odd one" });
    // A line Shopify would never send, standing for any the mapper refuses.
    store.updateProduct(odd.id, { status: 7 as unknown as "ACTIVE" });
    const { progress } = await runToEnd();
    expect(progress.failed).toBe(1);
    expect(progress.read).toBe(N + 1);
    const { runCli } = await import("../../app/.server/cli/main");
    const out: string[] = [];
    const code = await runCli(["sync", "errors", "--shop", shop], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
      env: { ...process.env, DATABASE_URL: s.t.url },
    });
    expect(code).toBe(0);
    expect(out.join("\n")).toMatch(
      new RegExp(
        `product ${odd.id.split("/").pop()} .* not mapped: status: Invalid input: expected string, received number$`,
        "m",
      ),
    );
  });
});
