import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { product } from "../../test/faults/payloads";
import { createWorkerContext } from "../context";
import { versionOf } from "../../app/.server/mapping/change-version";
import type { CatalogProduct } from "../../app/.server/reviews";
import { flushShopCatalog } from "../../app/.server/catalog/flush";
import { SendLockLostError } from "../../app/.server/catalog/send-fence";
import { stageProduct } from "../../app/.server/catalog/stage";

// The catalog send lock's fence, on real parts: a flush whose lock lapses while its request is at
// the service, and lands after the next holder's newer batch.

const SHOP = "send-fence.myshopify.com";
const P = 8800000000201;
let s: Stack;
let shopId: string;

const upstream = () => s.emu.control.state("acme").products.find((p) => p.sku === String(P));
const sentNames = (since: number) =>
  s.emu.control
    .requests(since)
    .filter((r) => r.path.endsWith("/products/batch") && r.status === 200)
    .flatMap((r) => (r.body as { products: CatalogProduct[] }).products.filter((p) => p.sku === String(P)))
    .map((p) => p.name);

beforeAll(async () => {
  s = await startStack("send-fence", { CATALOG_FLUSH_WINDOW_MS: "100", CATALOG_FLUSH_MAX_WAIT_MS: "300" });
  await s.connect(SHOP);
  shopId = (await s.web.shops.get(SHOP)).id;
  expect((await s.deliver("products/create", SHOP, product(P, "P v1"), { webhookId: "fence-p1" })).status).toBe(200);
  await eventually(
    async () => upstream()?.name,
    (n) => n === "P v1",
  );
  // The catalog sweep's first run (at the worker's start) is over: it would flush the change the
  // test stages for the other worker.
  await s.idle();
});
afterAll(async () => {
  await s?.close();
});

describe("catalog send fence", () => {
  it("GIVEN a flush whose send lock lapses while its older batch is at the service THEN nothing of it is recorded and the newest form is sent after it", async () => {
    const since = s.emu.control.lastRequestSeq();
    // A second worker with a short lock, whose Redis stops answering (a BLPOP holds its connection)
    // as its batch with P v2 goes out. Meanwhile P v3 is delivered and the stack's worker, once the
    // lock has lapsed, sends it; then Redis answers again and the v2 request lands, last.
    const away = `${s.prefix}:test:fence-away`;
    let paused = false;
    const late: typeof fetch = async (input, init) => {
      if (!paused && String(input).endsWith("/products/batch")) {
        paused = true;
        const back = other.queues.redis.blpop(away, 0);
        const v3 = { ...product(P, "P v3"), updated_at: "2026-11-20T11:00:09-05:00" };
        expect((await s.deliver("products/update", SHOP, v3, { webhookId: "fence-p3" })).status).toBe(200);
        await eventually(
          async () => upstream()?.name,
          (n) => n === "P v3",
        );
        await s.worker.queues.redis.lpush(away, "back");
        await back;
        return fetch(input, { ...init, signal: undefined });
      }
      return fetch(input, init);
    };
    const other = createWorkerContext(
      { ...s.config, WORKER_LOCK_MS: 1000, CATALOG_FLUSH_WINDOW_MS: 0, CATALOG_FLUSH_MAX_WAIT_MS: 0 },
      { log: s.worker.log, db: s.t.db, fetch: late },
    );
    try {
      const accepted = (await s.t.db.productMirror.findFirstOrThrow({ where: { shopId, productId: String(P) } }))
        .payload!;
      const v2 = { ...(JSON.parse(accepted) as CatalogProduct), name: "P v2" };
      const at = "2026-11-20T11:00:05-05:00";
      await stageProduct(other, shopId, String(P), v2, {
        sourceUpdatedAt: Date.parse(at),
        version: versionOf(at, { triggeredAt: "2026-11-20T16:00:05.100Z", eventId: "fence-p2" }),
      });
      const outcome = await flushShopCatalog(other, { shop: SHOP, shopId }, false).catch((e: unknown) => e);
      expect(paused).toBe(true);
      expect(outcome).toBeInstanceOf(SendLockLostError);
      // The newest form follows the late request, and stays.
      await eventually(
        async () => sentNames(since).at(-1),
        (n) => n === "P v3",
      );
      await s.idle();
      expect(upstream()?.name).toBe("P v3");
      const names = sentNames(since);
      expect(names.lastIndexOf("P v2")).toBeLessThan(names.lastIndexOf("P v3"));
      expect(names.filter((n) => n === "P v2").length).toBeGreaterThanOrEqual(1);
    } finally {
      await other.close();
    }
  });
});
