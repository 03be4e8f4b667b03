import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebStack, type WebStack } from "../test/faults/web-stack";
import { eventually } from "../test/helpers/contexts";

// `npm run worker` in a process of its own: SIGTERM with a catalog batch on the wire lets the batch
// finish, and the process exits 0 on its own (queues, Redis and the database closed).

const tee = JSON.parse(readFileSync("test/fixtures/products/apparel-tee.products-update.json", "utf8"));
const SHOP = "worker-stop.myshopify.com";
let s: WebStack;

beforeAll(async () => {
  s = await startWebStack("worker-stop");
  await s.connect(SHOP, "acme");
});
afterAll(async () => s?.close());

describe("the worker process", () => {
  it("GIVEN a batch in flight WHEN SIGTERM THEN the batch is accepted and the process exits 0 well within its 30 s bound", async () => {
    const worker = await s.startWorker();
    s.emu.control.setFaults({ latencyMs: 1500, paths: "/products/batch" });
    expect((await s.deliver("products/update", SHOP, { ...tee, title: "Stopping tee" })).status).toBe(200);
    const inFlight = await eventually(
      async () => s.emu.control.requests(0).find((r) => r.path === "/api/acme/products/batch"),
      Boolean,
      30_000,
    );
    expect(inFlight!.status).toBeNull();

    const signalled = Date.now();
    const code = await worker.stop();
    const tookMs = Date.now() - signalled;
    s.emu.control.clearFaults();
    expect(code, worker.tail()).toBe(0);
    expect(tookMs).toBeLessThan(30_000);
    expect(s.emu.control.requests(0).find((r) => r.seq === inFlight!.seq)?.status).toBe(200);
    expect(s.emu.control.state("acme").products.find((p) => p.sku === String(tee.id))?.name).toBe("Stopping tee");
    expect(worker.tail()).toMatch(/worker stopped/);
  });
});
