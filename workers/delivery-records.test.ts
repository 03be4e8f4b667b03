import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../test/helpers/db";
import { createDeliveryRecorder, type DeliveryRecord } from "./delivery-records";

let t: TestDb;
let shopId: string;
const log = pino({ level: "silent" });

const entry = (id: string, over: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id,
  shopId,
  topic: "products/update",
  eventId: `ev-${id}`,
  status: "done",
  error: null,
  processedAt: new Date(),
  ...over,
});

beforeAll(async () => {
  t = await createTestDb("sqlite");
  shopId = (await t.db.shop.create({ data: { domain: "records.myshopify.com" } })).id;
});

afterAll(async () => {
  await t.drop();
});

describe("delivery records (group commit)", () => {
  it("GIVEN 200 deliveries finishing together THEN every record is stored, in far fewer writes than records", async () => {
    const recorder = createDeliveryRecorder(t.db, log);
    await Promise.all(Array.from({ length: 200 }, (_, i) => recorder.record(entry(`g-${i}`))));
    expect(await t.db.webhookDelivery.count({ where: { id: { startsWith: "g-" } } })).toBe(200);
    expect(recorder.stats().records).toBe(200);
    expect(recorder.stats().groups).toBeLessThanOrEqual(3);
  });

  it("GIVEN deliveries finishing one after another, not together THEN they still share a write", async () => {
    const recorder = createDeliveryRecorder(t.db, log);
    const stored: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      stored.push(recorder.record(entry(`s-${i}`)));
      // The next job finishes in a later turn of the event loop, as a worker's jobs do.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(stored);
    expect(await t.db.webhookDelivery.count({ where: { id: { startsWith: "s-" } } })).toBe(20);
    expect(recorder.stats().groups).toBeLessThanOrEqual(2);
  });

  it("GIVEN a record that cannot be stored THEN only its own job hears of it; the group's others are stored", async () => {
    const recorder = createDeliveryRecorder(t.db, log);
    const results = await Promise.allSettled([
      recorder.record(entry("first")),
      recorder.record(entry("b-1")),
      recorder.record(entry("orphan", { shopId: "no-such-shop" })),
      recorder.record(entry("b-2")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(await t.db.webhookDelivery.count({ where: { id: { in: ["b-1", "b-2"] } } })).toBe(2);
  });

  it("GIVEN a delivery recorded queued with an error THEN its later outcome replaces it", async () => {
    const recorder = createDeliveryRecorder(t.db, log);
    await recorder.record(entry("retry", { status: "queued", error: "503 from the service", processedAt: null }));
    await Promise.all([recorder.record(entry("other")), recorder.record(entry("retry"))]);
    const row = await t.db.webhookDelivery.findUnique({ where: { id: "retry" } });
    expect(row).toMatchObject({ status: "done", error: null });
  });
});
