import { describe, expect, it } from "vitest";
import type { Shop } from "@prisma/client";
import { outcomeOf } from "../jobs/outcome";
import { flushShopCatalog, type FlushDeps } from "./flush";

// The flush's own decision, without a queue: a flush that starts before its shop's changes are due
// asks to come back when they are (the worker turns that into a delayed job); one that cannot wait
// answers at once. No service call is made either way.

const WINDOW = 1_000;
const MAX_WAIT = 5_000;

function deps(timing: { waiting: number; waitingSince: number | null; lastStagedAt: number | null }): FlushDeps {
  const shop = {
    id: "shop-1",
    domain: "flush.myshopify.com",
    installState: "installed",
    customerKey: "acme",
    clientSecretEncrypted: "sealed",
    primaryDomain: "https://flush.example",
    settings: "{}",
  } as Shop;
  const unused = () => {
    throw new Error("not expected in this test");
  };
  return {
    config: { CATALOG_FLUSH_WINDOW_MS: WINDOW, CATALOG_FLUSH_MAX_WAIT_MS: MAX_WAIT },
    cachedShop: async () => shop,
    forgetShop: unused,
    adminFor: unused,
    shops: {},
    queues: {},
    mirror: {},
    reviewsFor: async () => ({ admin: { sendCatalogBatch: unused } }),
    pending: { timing: async () => ({ ...timing, inflight: false }), take: unused },
  } as unknown as FlushDeps;
}

describe("flushShopCatalog", () => {
  it("GIVEN changes staged just now THEN retry later, once the quiet window has passed", async () => {
    const now = Date.now();
    const outcome = await outcomeOf(() =>
      flushShopCatalog(
        deps({ waiting: 3, waitingSince: now, lastStagedAt: now }),
        { shop: "flush.myshopify.com", shopId: "shop-1" },
        true,
      ),
    );
    expect(outcome).toMatchObject({ kind: "retry-later", reason: "catalog changes not due yet" });
    const delay = outcome.kind === "retry-later" ? outcome.delayMs : -1;
    expect(delay).toBeGreaterThan(WINDOW - 200);
    expect(delay).toBeLessThanOrEqual(WINDOW);
  });

  it("GIVEN the flush cannot wait THEN done at once, marked early", async () => {
    const now = Date.now();
    const outcome = await outcomeOf(() =>
      flushShopCatalog(
        deps({ waiting: 3, waitingSince: now, lastStagedAt: now }),
        { shop: "flush.myshopify.com", shopId: "shop-1" },
        false,
      ),
    );
    expect(outcome).toEqual({ kind: "done", value: { requests: 0, early: true } });
  });

  it("GIVEN nothing waits THEN done, no request", async () => {
    const outcome = await outcomeOf(() =>
      flushShopCatalog(
        deps({ waiting: 0, waitingSince: null, lastStagedAt: null }),
        { shop: "flush.myshopify.com", shopId: "shop-1" },
        true,
      ),
    );
    expect(outcome).toEqual({ kind: "done", value: { requests: 0 } });
  });
});
