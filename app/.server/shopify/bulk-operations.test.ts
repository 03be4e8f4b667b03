import { Readable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulatedStore, type SimulatedStore } from "../../../sandbox/simulated-store";
import { fromBulkProduct, mapProduct } from "../mapping/product.mapper";
import { defaultSettings } from "../settings/settings";
import { createAdminGraphql } from "./admin-graphql";
import {
  BulkJsonlError,
  currentBulkOperation,
  pollBulkOperation,
  readBulkJsonl,
  startBulkQuery,
  waitForBulkOperation,
} from "./bulk-operations";
import { bulkOrdersQuery } from "./order-documents";
import { bulkProductsQuery } from "./product-documents";
import { ShopifyPermanentError, ShopifyRetryableError, ShopifyUserErrors } from "./errors";
import { ThrottleRegistry } from "./throttle";

/** A JSONL source of `parents` products with `perParent` variant lines each, counting what was produced. */
function countingSource(parents: number, perParent: number) {
  const counter = { lines: 0, bytes: 0 };
  async function* lines() {
    for (let p = 0; p < parents; p++) {
      const id = `gid://shopify/Product/${9_000_000_000_000 + p}`;
      const rows = [
        JSON.stringify({
          id,
          title: `Product ${p}`,
          descriptionHtml: "<p>" + "Lorem ipsum dolor sit amet. ".repeat(4) + "</p>",
        }),
      ];
      for (let v = 0; v < perParent; v++) {
        rows.push(
          JSON.stringify({
            id: `gid://shopify/ProductVariant/${46_000_000_000_000 + p * 10 + v}`,
            sku: `SKU-${p}-${v}`,
            __parentId: id,
          }),
        );
      }
      for (const row of rows) {
        counter.lines++;
        counter.bytes += row.length + 1;
        yield `${row}\n`;
      }
    }
  }
  return { counter, stream: Readable.from(lines()) };
}

describe("readBulkJsonl", () => {
  it("groups 100,000 lines (multi-MB) into parents with their children", async () => {
    const { counter, stream } = countingSource(20_000, 4);
    let parents = 0;
    let children = 0;
    for await (const group of readBulkJsonl<{ id: string }, { __parentId: string }>(stream)) {
      parents++;
      children += group.children.length;
      expect(group.children.every((c) => c.__parentId === group.parent.id)).toBe(true);
    }
    expect(counter.lines).toBe(100_000);
    expect(counter.bytes).toBeGreaterThan(5_000_000);
    expect(parents).toBe(20_000);
    expect(children).toBe(80_000);
  });

  it("streams: the first parent arrives long before the input ends, and reading stays close behind consuming", async () => {
    const { counter, stream } = countingSource(20_000, 4);
    let seen = 0;
    let maxLead = 0;
    for await (const group of readBulkJsonl(stream)) {
      seen += 1 + group.children.length;
      if (seen === 5) expect(counter.lines).toBeLessThan(10_000);
      maxLead = Math.max(maxLead, counter.lines - seen);
      // A slow consumer (an upload per batch, in real life).
      if (seen % 5_000 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // Never more than a few thousand lines read ahead of the consumer, out of 100,000.
    expect(maxLead).toBeLessThan(10_000);
  });

  it("stops reading its input when the consumer stops", async () => {
    const { counter, stream } = countingSource(20_000, 4);
    let n = 0;
    for await (const _ of readBulkJsonl(stream)) if (++n === 10) break;
    expect(stream.destroyed).toBe(true);
    expect(counter.lines).toBeLessThan(10_000);
  });

  it("keeps grandchildren (two levels of nesting) in their top-level parent's group", async () => {
    const jsonl = [
      { id: "gid://shopify/Order/1" },
      { id: "gid://shopify/LineItem/11", __parentId: "gid://shopify/Order/1" },
      { id: "gid://shopify/Discount/111", __parentId: "gid://shopify/LineItem/11" },
      { id: "gid://shopify/Order/2" },
    ].map((o) => JSON.stringify(o) + "\n");
    const groups = [];
    for await (const g of readBulkJsonl(Readable.from(jsonl))) groups.push(g);
    expect(groups.map((g) => [g.parent.id, g.children.length])).toEqual([
      ["gid://shopify/Order/1", 2],
      ["gid://shopify/Order/2", 0],
    ]);
  });

  it("rejects ungrouped output (a child away from its parent) and bad JSON, naming the line", async () => {
    const ungrouped = [
      { id: "gid://shopify/Product/1" },
      { id: "gid://shopify/Product/2" },
      { id: "gid://shopify/ProductVariant/1", __parentId: "gid://shopify/Product/1" },
    ].map((o) => JSON.stringify(o) + "\n");
    const drain = async (lines: string[]) => {
      for await (const _ of readBulkJsonl(Readable.from(lines))) void _;
    };
    await expect(drain(ungrouped)).rejects.toThrow(/line 3: child of gid:\/\/shopify\/Product\/1/);
    await expect(drain(['{"id":"a"}\n', "{oops\n"])).rejects.toBeInstanceOf(BulkJsonlError);
  });

  it("yields nothing for a bulk query that matched nothing (no URL)", async () => {
    const out = [];
    for await (const g of readBulkJsonl(null)) out.push(g);
    expect(out).toEqual([]);
  });
});

describe("bulk operations against the simulated store (real HTTP)", () => {
  let store: SimulatedStore;
  const N = 5_000;
  beforeAll(async () => {
    store = await startSimulatedStore({ products: N, seed: 11, bulkDurationMs: 30 });
  });
  afterAll(async () => {
    await store.close();
  });
  const gql = () =>
    createAdminGraphql({
      shop: store.shop,
      accessToken: store.accessToken,
      apiVersion: store.apiVersion,
      endpoint: store.graphqlEndpoint,
      logger: pino({ level: "silent" }),
      throttle: new ThrottleRegistry(),
    });

  it("runs the products bulk query, waits for COMPLETED and streams every product with its children", async () => {
    const client = gql();
    const id = await startBulkQuery(client, bulkProductsQuery({ metafieldKeys: ["custom.material"] }));
    expect(id).toMatch(/^gid:\/\/shopify\/BulkOperation\/\d+$/);
    expect((await pollBulkOperation(client, id)).status).toMatch(/^(CREATED|RUNNING|COMPLETED)$/);
    const done = await waitForBulkOperation(client, id, { intervalMs: 10, timeoutMs: 10_000 });
    expect(done.status).toBe("COMPLETED");
    expect(done.url).toMatch(/\/bulk\/\d+\.jsonl$/);
    expect((await currentBulkOperation(client))?.id).toBe(id);

    let products = 0;
    let lines = 0;
    const categories = new Set<string>();
    for await (const group of readBulkJsonl(done.url)) {
      products++;
      lines += 1 + group.children.length;
      const mapped = mapProduct(fromBulkProduct(group), {
        primaryDomain: store.primaryDomain,
        settings: { ...defaultSettings.catalog, specificationMetafields: ["custom.material"] },
      });
      expect(mapped.variants!.length).toBeGreaterThan(0);
      for (const c of mapped.categories) categories.add(c);
    }
    expect(products).toBe(N);
    expect(lines).toBe(done.objectCount);
    expect(done.rootObjectCount).toBe(N);
    expect(categories.size).toBeGreaterThan(5);
    // The result URL is pre-signed storage: the Shopify token must not be sent there.
    expect(store.bulkDownloads.at(-1)).toMatchObject({ sentAccessToken: false });
  });

  it("ungrouped output (groupObjects: false) is refused rather than misread", async () => {
    const client = gql();
    const id = await startBulkQuery(client, bulkProductsQuery(), { groupObjects: false });
    const done = await waitForBulkOperation(client, id, { intervalMs: 10, timeoutMs: 10_000 });
    const drain = async () => {
      for await (const _ of readBulkJsonl(done.url)) void _;
    };
    await expect(drain()).rejects.toBeInstanceOf(BulkJsonlError);
  });

  it("a failed operation reports FAILED with its error code; an unknown root is a userError", async () => {
    const client = gql();
    store.failNextBulkOperation("ACCESS_DENIED");
    const id = await startBulkQuery(client, bulkProductsQuery());
    const done = await waitForBulkOperation(client, id, { intervalMs: 10, timeoutMs: 10_000 });
    expect(done).toMatchObject({ status: "FAILED", errorCode: "ACCESS_DENIED", url: null });
    // Orders are not in the store yet: the query is refused like an invalid one.
    await expect(
      startBulkQuery(client, bulkOrdersQuery({ createdSince: "2026-09-01T00:00:00Z" })),
    ).rejects.toBeInstanceOf(ShopifyUserErrors);
  });

  it("waitForBulkOperation gives up at its deadline with a retryable error (the operation keeps running)", async () => {
    const slow = await startSimulatedStore({ products: 10, bulkDurationMs: 60_000 });
    try {
      const client = createAdminGraphql({
        shop: slow.shop,
        accessToken: slow.accessToken,
        apiVersion: slow.apiVersion,
        endpoint: slow.graphqlEndpoint,
        logger: pino({ level: "silent" }),
        throttle: new ThrottleRegistry(),
      });
      const id = await startBulkQuery(client, bulkProductsQuery());
      expect((await pollBulkOperation(client, id)).status).toBe("RUNNING");
      const error = await waitForBulkOperation(client, id, { intervalMs: 10, timeoutMs: 50 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ShopifyRetryableError);
    } finally {
      await slow.close();
    }
  });

  it("an expired or unknown result URL is a permanent error", async () => {
    await expect(readBulkJsonl(`${store.origin}/bulk/999.jsonl`).next()).rejects.toBeInstanceOf(ShopifyPermanentError);
  });
});
