import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/contexts";
import { sqlitePath } from "../../app/.server/db/client";
import { product } from "./payloads";
import { startWebStack, type WebStack } from "./web-stack";
import type { WorkerProcess } from "./worker-process";

// Two edits of one product within one second (a bulk editor), and the worker that had the first in
// hand SIGKILLed between them. BullMQ runs that job again once its lock lapses (at least once), so
// the first edit is staged again after the second was staged and sent. Shopify's updated_at is the
// same whole second in both payloads: only the delivery's X-Shopify-Triggered-At (then its event id)
// tells them apart (app/.server/mapping/change-version.ts). The newer edit must end upstream.
//
// To kill the worker while the first edit's job is in hand, after it staged the edit and before
// the job could complete, the drill holds the database's write lock: the job's delivery record
// (which it writes before it completes) waits for it, and the kill lands there.

const SHOP = "same-second.myshopify.com";
const P = 8800000000301;
const SECOND = "2026-11-20T11:00:05-05:00";

let s: WebStack;
let second: WorkerProcess | undefined;

beforeAll(async () => {
  s = await startWebStack("same-second", { CATALOG_FLUSH_WINDOW_MS: "100", CATALOG_FLUSH_MAX_WAIT_MS: "300" });
});
afterAll(async () => {
  await s?.close();
});

const upstream = () => s.emu.control.state("acme").products.find((p) => p.sku === String(P));
const record = (id: string) => s.t.db.webhookDelivery.findUnique({ where: { id } });
const edit = (title: string) => ({ ...product(P, title), updated_at: SECOND });

describe("two edits in one second, a worker killed between them", () => {
  it("GIVEN the first edit's job in hand when its worker is SIGKILLed, and the second edit delivered THEN the second edit ends upstream, though the first runs again after it", async () => {
    const shopId = await s.connect(SHOP, "acme");
    const first = await s.startWorker();
    expect((await s.deliver("products/create", SHOP, product(P, "Stool"), { webhookId: "stool-create" })).status).toBe(
      200,
    );
    await eventually(
      async () => upstream()?.name,
      (n) => n === "Stool",
      30_000,
    );

    // The database's write lock, taken from here: the worker can read, and waits on any write.
    const lock = new Database(sqlitePath(s.t.url), { timeout: 30_000 });
    lock.exec("BEGIN IMMEDIATE");
    try {
      const a = await s.deliver("products/update", SHOP, edit("Stool A"), {
        webhookId: "stool-a",
        eventId: "stool-event-a",
        triggeredAt: "2026-11-20T16:00:05.120Z",
      });
      expect(a.status).toBe(200);
      // Staged in Redis; its delivery record (and so the job's completion) waits on the lock.
      await eventually(
        async () => (await s.pending.staged(shopId, String(P)))?.product.name,
        (n) => n === "Stool A",
        30_000,
      );
      await first.kill();
    } finally {
      lock.exec("ROLLBACK");
      lock.close();
    }
    expect(await record("stool-a")).toBeNull();

    const b = await s.deliver("products/update", SHOP, edit("Stool B"), {
      webhookId: "stool-b",
      eventId: "stool-event-b",
      triggeredAt: "2026-11-20T16:00:05.640Z",
    });
    expect(b.status).toBe(200);
    second = await s.startWorker();
    // The first edit's job runs again once the killed worker's lock lapses: after the second's.
    const [recordA, recordB] = await eventually(
      () => Promise.all([record("stool-a"), record("stool-b")]),
      (rows) => rows.every((r) => r?.status === "done"),
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nsecond worker:\n${second?.tail()}`);
    });
    expect(recordA!.processedAt!.getTime()).toBeGreaterThan(recordB!.processedAt!.getTime());
    await eventually(
      async () => (await s.pending.timing(shopId)).waiting + Number((await s.pending.timing(shopId)).inflight),
      (left) => left === 0,
      30_000,
    );

    expect(upstream()?.name).toBe("Stool B");
    const mirror = await s.t.db.productMirror.findFirstOrThrow({ where: { shopId, productId: String(P) } });
    expect((JSON.parse(mirror.payload!) as { name: string }).name).toBe("Stool B");
    await second.stop();
  }, 120_000);
});
