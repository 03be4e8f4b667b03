import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import type { DbProvider } from "../db/client";
import { createConsentRepository } from "../consent/consent.repository";
import { createOrderStateRepository, orderStateGroupStats } from "./order-state.repository";

// Order states and consent read and written in groups (db/group-commit.ts), on both databases:
// reads of many orders of two shops made together are one query and each caller gets its own
// row; saves made together, new rows and existing ones, commit together; the shops stay apart.

describe.each<DbProvider>(["sqlite", "postgresql"])("order states in groups on %s", (provider) => {
  let t: TestDb;
  let shopA: string;
  let shopB: string;
  beforeAll(async () => {
    t = await createTestDb(provider);
    shopA = (await t.db.shop.create({ data: { domain: "grouped-a.myshopify.com" } })).id;
    shopB = (await t.db.shop.create({ data: { domain: "grouped-b.myshopify.com" } })).id;
  });
  afterAll(async () => t?.drop());

  it("GIVEN saves and reads of two shops' orders made together THEN one group each, every caller its own row, the shops apart", async () => {
    const states = createOrderStateRepository(t.db);
    await states.save(shopA, "1", { status: "paid", name: "#1001" });
    const before = orderStateGroupStats(t.db);

    // The same order id in both shops; one existing row updated, new rows created.
    await Promise.all([
      states.save(shopA, "1", { status: "shipped" }),
      states.save(shopA, "2", { status: "paid", name: "#1002" }),
      states.save(shopB, "1", { status: "pending", name: "#9001" }),
    ]);
    const [a1, a2, b1, b2] = await Promise.all([
      states.get(shopA, "1"),
      states.get(shopA, "2"),
      states.get(shopB, "1"),
      states.get(shopB, "2"),
    ]);
    const after = orderStateGroupStats(t.db);
    expect(after.saves.groups - before.saves.groups).toBe(1);
    expect(after.reads.groups - before.reads.groups).toBe(1);
    expect(after.reads.requests - before.reads.requests).toBe(4);

    expect(a1).toMatchObject({ orderId: "1", status: "shipped", name: "#1001" });
    expect(a2).toMatchObject({ orderId: "2", status: "paid", name: "#1002" });
    expect(b1).toMatchObject({ orderId: "1", status: "pending", name: "#9001" });
    expect(b2).toBeNull();
  });

  it("GIVEN consent asked for several customers together THEN each gets their own record, a stranger none", async () => {
    const consents = createConsentRepository(t.db);
    await consents.record(shopA, "7001", {
      email: { state: "subscribed", updatedAt: new Date("2026-10-01T10:00:00Z") },
    });
    await consents.record(shopB, "7002", {
      sms: { state: "unsubscribed", updatedAt: new Date("2026-10-01T10:00:00Z") },
    });
    const [a, b, strangerInA, bInA] = await Promise.all([
      consents.get(shopA, "7001"),
      consents.get(shopB, "7002"),
      consents.get(shopA, "7999"),
      consents.get(shopA, "7002"),
    ]);
    expect(a?.channels.email?.state).toBe("subscribed");
    expect(b?.channels.sms?.state).toBe("unsubscribed");
    expect(strangerInA).toBeNull();
    expect(bInA).toBeNull();
  });
});
