import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import type { DbProvider } from "../db/client";
import { createBackSyncState } from "./backsync-state.repository";
import { SEEN_MAX } from "./review-feed";

// The back-sync's memory on both databases: the Flow claim must hold across processes (a unique
// row, the second claim refused), digests upsert, the feed's memory round-trips within its bound,
// and shop/redact leaves nothing of the shop.

describe.each<DbProvider>(["sqlite", "postgresql"])("back-sync state on %s", (provider) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(provider);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("GIVEN a Flow trigger claimed THEN a second claim (another process, a restart) is refused until the claim is given back", async () => {
    const state = createBackSyncState(t.db);
    expect(await state.claimTrigger("shop-1", "review-published", "r1")).toBe(true);
    expect(await createBackSyncState(t.db).claimTrigger("shop-1", "review-published", "r1")).toBe(false);
    expect(await state.claimTrigger("shop-1", "negative-review-received", "r1")).toBe(true);
    expect(await state.claimTrigger("shop-2", "review-published", "r1")).toBe(true);
    await state.releaseTrigger("shop-1", "review-published", "r1");
    expect(await state.claimTrigger("shop-1", "review-published", "r1")).toBe(true);
  });

  it("GIVEN the feed's memory saved THEN it reads back whole, bounded, and a shop never read has none", async () => {
    const state = createBackSyncState(t.db);
    expect(await state.feedMemory("shop-feed")).toBeNull();
    const seen = Array.from({ length: SEEN_MAX + 20 }, (_, i) => `r${i}:published`);
    await state.saveFeedMemory("shop-feed", { cursor: null, seen });
    expect(await state.feedMemory("shop-feed")).toEqual({ cursor: null, seen: seen.slice(0, SEEN_MAX) });
    await state.saveFeedMemory("shop-feed", { cursor: "2026-11-01T00:00:00.000Z", seen: ["r9:removed"] });
    expect(await state.feedMemory("shop-feed")).toEqual({ cursor: "2026-11-01T00:00:00.000Z", seen: ["r9:removed"] });
  });

  it("GIVEN digests written twice THEN the newest is kept; shop/redact deletes cursor, digests and claims of that shop only", async () => {
    const state = createBackSyncState(t.db);
    await state.update("shop-1", { cursor: "2026-11-01T00:00:00.000Z", definitionsEnabledAt: new Date() });
    await state.record("shop-1", [{ productId: "1", digest: "a", count: 2, average: 4.5, status: "written" }]);
    await state.record("shop-1", [{ productId: "1", digest: "b", count: 3, average: 4.7, status: "written" }]);
    await state.recordCleared("shop-1", ["2"]);
    await state.record("shop-2", [{ productId: "1", digest: "x", count: 1, average: 5, status: "written" }]);
    expect(
      [...(await state.digests("shop-1", ["1", "2", "3"])).values()].sort((a, b) =>
        a.productId.localeCompare(b.productId),
      ),
    ).toEqual([
      { productId: "1", digest: "b", count: 3, average: 4.7, status: "written" },
      { productId: "2", digest: "cleared", count: 0, average: 0, status: "cleared" },
    ]);
    expect((await state.written("shop-1")).map((d) => d.productId)).toEqual(["1"]);
    expect(await state.forgetShop("shop-1")).toEqual({ states: 1, digests: 2, triggers: 2 });
    expect(await state.get("shop-1")).toBeNull();
    expect((await state.digests("shop-2", ["1"])).get("1")?.digest).toBe("x");
  });
});
