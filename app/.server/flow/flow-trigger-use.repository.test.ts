import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import type { DbProvider } from "../db/client";
import { createFlowTriggerUse } from "./flow-trigger-use.repository";

// The shops' use of our Flow triggers on both databases: a newer callback replaces the stored one,
// an older or repeated one does not, two at once leave the newer, and shop/redact leaves nothing.

const at = (iso: string) => new Date(iso);

describe.each<DbProvider>(["sqlite", "postgresql"])("Flow trigger use on %s", (provider) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(provider);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("GIVEN callbacks in and out of order THEN the newest stands", async () => {
    const use = createFlowTriggerUse(t.db);
    expect(await use.get("shop-1", "review-collected")).toBeNull();
    expect(await use.record("shop-1", "review-collected", { inUse: true, changedAt: at("2026-11-26T12:00:00Z") })).toBe(
      "recorded",
    );
    expect(
      await use.record("shop-1", "review-collected", { inUse: false, changedAt: at("2026-11-26T13:00:00Z") }),
    ).toBe("recorded");
    expect(await use.record("shop-1", "review-collected", { inUse: true, changedAt: at("2026-11-26T12:30:00Z") })).toBe(
      "older than stored",
    );
    expect(await use.record("shop-1", "review-collected", { inUse: true, changedAt: at("2026-11-26T13:00:00Z") })).toBe(
      "older than stored",
    );
    expect(await use.get("shop-1", "review-collected")).toEqual({
      inUse: false,
      changedAt: at("2026-11-26T13:00:00Z"),
    });
  });

  it("GIVEN two callbacks at once for a shop never seen THEN the newer is stored", async () => {
    const use = createFlowTriggerUse(t.db);
    await Promise.all([
      use.record("shop-2", "review-collected", { inUse: true, changedAt: at("2026-11-26T14:00:00Z") }),
      use.record("shop-2", "review-collected", { inUse: false, changedAt: at("2026-11-26T13:59:00Z") }),
    ]);
    expect(await use.get("shop-2", "review-collected")).toEqual({ inUse: true, changedAt: at("2026-11-26T14:00:00Z") });
  });

  it("GIVEN shop/redact THEN the shop's records go, another shop's stay", async () => {
    const use = createFlowTriggerUse(t.db);
    expect(await use.forgetShop("shop-1")).toBe(1);
    expect(await use.get("shop-1", "review-collected")).toBeNull();
    expect(await use.get("shop-2", "review-collected")).not.toBeNull();
  });
});
