import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";

// Live catalog changes against the real emulator and Redis: webhook → route → queue → worker →
// mapper → coalesced batch → service.
const fixture = (name: string) => JSON.parse(readFileSync(`test/fixtures/products/${name}`, "utf8"));
const tee = fixture("apparel-tee.products-update.json");
const shop = "catalog-live.myshopify.com";
let s: Stack;

beforeAll(async () => {
  s = await startStack("catalog-live", { CATALOG_FLUSH_WINDOW_MS: "1000", CATALOG_FLUSH_MAX_WAIT_MS: "10000" });
  await s.connect(shop);
});
afterAll(async () => s.close());

const batches = (since = 0) => s.emu.control.requests(since).filter((r) => r.path === "/api/acme/products/batch");
const stored = (sku: string) => s.emu.control.state("acme").products.find((p) => p.sku === sku);
const mirror = (productId: string) => s.t.db.productMirror.findFirst({ where: { productId } });

/** A product payload with its id and title changed, as Shopify would send for another product. */
function product(id: number, title = `Product ${id}`, extra: Record<string, unknown> = {}) {
  return { ...tee, id, admin_graphql_api_id: `gid://shopify/Product/${id}`, title, handle: `product-${id}`, ...extra };
}

describe("catalog sync, live", () => {
  it("GIVEN products/create THEN the mapped product reaches the service and the mirror records it", async () => {
    expect((await s.deliver("products/create", shop, tee, { webhookId: "create-tee" })).status).toBe(200);
    await eventually(async () => stored(String(tee.id)), Boolean);
    expect(stored(String(tee.id))).toMatchObject({
      name: "Heavyweight Organic Tee",
      url: "https://catalog-live.example.com/products/heavyweight-organic-tee",
      externalId: "gid://shopify/Product/7982135394382",
      status: "active",
    });
    expect(
      (
        await eventually(
          () => mirror(String(tee.id)),
          (m) => m?.status === "synced",
        )
      )?.payloadHash,
    ).toMatch(/^[0-9a-f]{64}$/);
  });

  it("GIVEN the same delivery again (same webhook id) THEN it has no second effect", async () => {
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    await s.deliver("products/create", shop, { ...tee, title: "Changed by a replay" }, { webhookId: "create-tee" });
    await s.deliver("products/update", shop, product(9001), { webhookId: "marker-1" });
    await eventually(async () => stored("9001"), Boolean);
    // The marker arriving is only the first effect: a replay's batch could still come after it.
    await s.idle();
    expect(stored(String(tee.id))?.name).toBe("Heavyweight Organic Tee");
    expect(
      batches(since).flatMap((b) => (b.body as { products: { sku: string }[] }).products.map((p) => p.sku)),
    ).toEqual(["9001"]);
  });

  it("GIVEN an update that changes nothing the service sees (inventory, price) THEN nothing is sent", async () => {
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    const variants = tee.variants.map((v: Record<string, unknown>) => ({
      ...v,
      inventory_quantity: 3,
      price: "99.00",
    }));
    await s.deliver("products/update", shop, { ...tee, variants, updated_at: "2026-11-20T12:00:00Z" });
    await s.deliver("products/update", shop, product(9002), { webhookId: "marker-2" });
    await eventually(async () => stored("9002"), Boolean);
    await s.idle();
    const skus = batches(since).flatMap((b) => (b.body as { products: { sku: string }[] }).products.map((p) => p.sku));
    expect(skus).toEqual(["9002"]);
  });

  it("GIVEN 60 updates of 20 products inside the window THEN they go as one or two batches with each product's newest state", async () => {
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    const deliveries = [];
    // Delivered at once and processed 32 at a time: Shopify's updated_at says which is newest.
    for (let round = 1; round <= 3; round++) {
      for (let i = 0; i < 20; i++)
        deliveries.push(
          s.deliver(
            "products/update",
            shop,
            product(10_000 + i, `P${i} v${round}`, { updated_at: `2026-11-20T12:00:0${round}Z` }),
          ),
        );
    }
    await Promise.all(deliveries);
    await eventually(
      async () => [...Array(20).keys()].every((i) => stored(String(10_000 + i))?.name === `P${i} v3`),
      Boolean,
    );
    await s.idle();
    expect(batches(since).length).toBeLessThanOrEqual(2);
  });

  it("GIVEN products/delete THEN the product is sent as inactive, never deleted", async () => {
    await s.deliver("products/delete", shop, { id: 9001 });
    await eventually(
      async () => stored("9001")?.status,
      (st) => st === "inactive",
    );
    expect(stored("9001")?.name).toBe("Product 9001");
  });
});

describe("catalog sync, answers of the service", () => {
  const deliverAndWait = async (id: number) => {
    await s.deliver("products/update", shop, product(id));
    await eventually(
      () => mirror(String(id)),
      (m) => m?.status === "synced" || m?.status === "failed",
    );
  };

  it("GIVEN a per-item refusal in a 200 THEN that product is recorded with the reason and the CLI lists it", async () => {
    const shopRow = await s.web.shops.get(shop);
    await s.worker.pending.stage(shopRow.id, {
      productId: "777",
      sku: "777",
      hash: "x",
      product: { sku: "777", name: "No categories" },
    });
    await s.deliver("products/update", shop, product(778));
    const row = await eventually(
      () => mirror("777"),
      (m) => m?.status === "failed",
    );
    expect(row?.error).toMatch(/categor/i);
    expect(
      (
        await eventually(
          () => mirror("778"),
          (m) => Boolean(m),
        )
      )?.status,
    ).toBe("synced");

    const { runCli } = await import("../../app/.server/cli/main");
    const out: string[] = [];
    const code = await runCli(["sync", "errors", "--shop", shop], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
      env: { ...process.env, DATABASE_URL: s.t.url },
    });
    expect(code).toBe(0);
    expect(out.join("\n")).toMatch(/777.*categor/i);
  });

  it("GIVEN a 400 for the whole batch THEN it is split and every good product is accepted", async () => {
    // A flush left over from the test before would take the fault meant for this batch.
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    s.emu.control.setFaults({ failNext: { count: 1, status: 400 }, paths: "/products/batch" });
    await Promise.all([20_001, 20_002, 20_003].map((id) => s.deliver("products/update", shop, product(id))));
    for (const id of [20_001, 20_002, 20_003]) await eventually(async () => stored(String(id)), Boolean);
    s.emu.control.clearFaults();
    expect(batches(since).map((b) => b.status)).toEqual([400, 200, 200]);
  });

  it("GIVEN a 413 THEN the batch is halved and everything arrives", async () => {
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    s.emu.control.setFaults({ failNext: { count: 1, status: 413 }, paths: "/products/batch" });
    await Promise.all([21_001, 21_002].map((id) => s.deliver("products/update", shop, product(id))));
    for (const id of [21_001, 21_002]) await eventually(async () => stored(String(id)), Boolean);
    s.emu.control.clearFaults();
    expect(batches(since).map((b) => b.status)).toEqual([413, 200, 200]);
  });

  it("GIVEN an expired token THEN the client refreshes it once and the batch is accepted", async () => {
    s.emu.control.expireTokens();
    await deliverAndWait(22_001);
    expect(stored("22001")).toBeDefined();
  });

  it("GIVEN 503s THEN the job retries with backoff and loses nothing", async () => {
    s.emu.control.setFaults({ failNext: { count: 2, status: 503 }, paths: "/products/batch" });
    await deliverAndWait(23_001);
    s.emu.control.clearFaults();
    expect(stored("23001")).toBeDefined();
  });

  it("GIVEN a 429 with Retry-After THEN the job waits that long, without spending an attempt, and succeeds", async () => {
    await s.idle();
    const since = s.emu.control.lastRequestSeq();
    s.emu.control.setFaults({ rateLimit: { count: 1, retryAfterSeconds: 1 }, paths: "/products/batch" });
    await deliverAndWait(24_001);
    s.emu.control.clearFaults();
    const [limited, ok] = batches(since);
    expect(limited.status).toBe(429);
    expect(ok.status).toBe(200);
    expect(Date.parse(ok.at) - Date.parse(limited.at)).toBeGreaterThanOrEqual(950);
  });
});
