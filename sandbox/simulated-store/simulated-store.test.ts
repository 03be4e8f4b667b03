import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createAdminGraphql } from "../../app/.server/shopify/admin-graphql";
import { readBulkJsonl, startBulkQuery, waitForBulkOperation } from "../../app/.server/shopify/bulk-operations";
import { bulkOrdersQuery } from "../../app/.server/shopify/order-documents";
import { bulkProductsQuery, PRODUCT_BY_ID } from "../../app/.server/shopify/product-documents";
import { fetchProduct } from "../../app/.server/shopify/queries";
import { ThrottleRegistry } from "../../app/.server/shopify/throttle";
import { isValidGtin } from "../../app/.server/mapping/product.codes";
import { webhookProductSchema } from "../../app/.server/mapping/product.schemas";
import {
  generateProduct,
  generateProducts,
  generatedShape,
  productWebhookPayload,
  startSimulatedStore,
  startStoreFleet,
  type SimulatedStore,
  type StoreModule,
} from ".";
import { SHOP_PRIMARY_DOMAIN } from "../../app/.server/shopify/documents";

/** A full collection now (V8's gc, reached without starting the process with --expose-gc). */
function collectGarbage() {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

const open: SimulatedStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<typeof startSimulatedStore>[0]) {
  const store = await startSimulatedStore(options);
  open.push(store);
  const gql = createAdminGraphql({
    shop: store.shop,
    accessToken: store.accessToken,
    apiVersion: store.apiVersion,
    endpoint: store.graphqlEndpoint,
    logger: pino({ level: "silent" }),
    throttle: new ThrottleRegistry(),
  });
  return { store, gql };
}

/** Polls `check` until it returns a value (bounded): waits on a condition, not on a guess of time. */
async function eventually<T>(check: () => T | undefined | null | false, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise<void>((resolve) => setTimeout(resolve, 10));
  }
}

describe("product generator", () => {
  it("is deterministic per seed and index, and differs across seeds", () => {
    expect(generateProducts(50, 3)).toEqual(generateProducts(50, 3));
    expect(generateProduct(49, 3)).toEqual(generateProducts(50, 3)[49]);
    expect(generateProducts(5, 3)).not.toEqual(generateProducts(5, 4));
  });

  it("makes real-shaped products: 1-8 variants, some valid GTINs, some empty product types, categories, images", () => {
    const products = generateProducts(1_000, 9);
    const variantCounts = products.map((p) => p.variants.length);
    expect(Math.min(...variantCounts)).toBe(1);
    expect(Math.max(...variantCounts)).toBe(8);
    const barcodes = products.flatMap((p) => p.variants.map((v) => v.barcode ?? ""));
    expect(barcodes.filter((b) => isValidGtin(b)).length).toBeGreaterThan(barcodes.length * 0.3);
    expect(barcodes.some((b) => b && !isValidGtin(b))).toBe(true);
    expect(products.some((p) => p.productType === "")).toBe(true);
    expect(products.some((p) => p.category === null)).toBe(true);
    expect(products.some((p) => p.category !== null)).toBe(true);
    expect(products.some((p) => p.featuredMedia === null)).toBe(true);
    expect(new Set(products.map((p) => p.status))).toEqual(new Set(["ACTIVE", "DRAFT", "ARCHIVED", "UNLISTED"]));
    expect(products.some((p) => p.options[0]?.name === "Title" && p.variants[0].title === "Default Title")).toBe(true);
    for (const p of products) {
      expect(p.id).toMatch(/^gid:\/\/shopify\/Product\/\d+$/);
      // Options list exactly the values the variants use.
      p.options.forEach((o, k) =>
        expect(new Set(p.variants.map((v) => v.selectedOptions[k].value))).toEqual(new Set(o.values)),
      );
    }
    expect(new Set(products.map((p) => p.handle)).size).toBe(products.length);
  });

  it("generatedShape predicts a product's line counts without building it", () => {
    for (let i = 0; i < 300; i++) {
      const p = generateProduct(i, 5);
      expect(generatedShape(i, 5)).toEqual({
        variants: p.variants.length,
        collections: p.collections.length,
        metafields: p.metafields.length,
      });
    }
  });

  it("productWebhookPayload renders a node as the REST products/update payload", () => {
    const node = generateProducts(30, 2).find((p) => p.variants.length > 1 && p.category)!;
    const payload = productWebhookPayload(node);
    const real = JSON.parse(
      readFileSync(new URL("../../test/fixtures/products/apparel-tee.products-update.json", import.meta.url), "utf8"),
    ) as object;
    expect(Object.keys(payload).sort()).toEqual(Object.keys(real).sort());
    const parsed = webhookProductSchema.parse(payload);
    expect(parsed.id).toBe(Number(node.id.split("/").pop()));
    expect(parsed.admin_graphql_api_id).toBe(node.id);
    expect(parsed.status).toBe(node.status.toLowerCase());
    expect(parsed.variants?.[0]).toMatchObject({
      admin_graphql_api_id: node.variants[0].id,
      option1: node.variants[0].selectedOptions[0].value,
    });
    expect(parsed.category).toMatchObject({ name: node.category!.name, full_name: node.category!.fullName });
  });
});

describe("simulated store over HTTP", () => {
  it("answers ProductById and reflects added, updated and deleted products", async () => {
    const { store, gql } = await start({ products: 10, seed: 1 });
    const [first] = store.products();
    expect((await fetchProduct(gql, first.id))?.title).toBe(first.title);
    store.updateProduct(first.id, { title: "Renamed Tee" });
    expect((await fetchProduct(gql, first.id))?.title).toBe("Renamed Tee");
    const added = store.addProduct({ title: "Brand New Mug", productType: "" });
    expect((await fetchProduct(gql, added.id))?.productType).toBe("");
    expect(store.deleteProduct(first.id)).toBe(true);
    expect(await fetchProduct(gql, first.id)).toBeNull();
    expect(store.products()).toHaveLength(10);
  });

  it("reports cost like Shopify: requested, actual and the bucket after the call", async () => {
    const { store, gql } = await start({ products: 3, throttle: { maximumAvailable: 1000, restoreRate: 50 } });
    const [first] = store.products();
    const { cost } = await gql.request(PRODUCT_BY_ID, { id: first.id, withMetafields: false, metafieldKeys: [] });
    // Computed from the document: the product 1, category, featuredMedia, preview, image, options 5,
    // variants(first: 100) 2 + 100 × (1 + barcodes(first: 5) 2 + 5), collections(first: 10) 2 + 10.
    expect(cost?.requestedQueryCost).toBe(1 + 5 + (2 + 100 * 8) + (2 + 10));
    const barcodes = first.variants.reduce((n, v) => n + (v.barcodes?.length ?? 0), 0);
    expect(cost?.actualQueryCost).toBe(1 + 2 + first.variants.length * 3 + barcodes + 2 + first.collections.length);
    expect(cost?.throttleStatus).toMatchObject({ maximumAvailable: 1000, restoreRate: 50 });
    expect(cost!.throttleStatus!.currentlyAvailable).toBeLessThan(1000);
  });

  it("answers an unknown operation with a GraphQL error", async () => {
    const { gql } = await start({});
    await expect(gql.query("query NotInTheStore { shop { id } }")).rejects.toThrow(
      /no handler for operation NotInTheStore/,
    );
  });

  it("streams a 100,000-product bulk result generated on the fly", async () => {
    const { store, gql } = await start({ products: 100_000, seed: 3, bulkDurationMs: 10 });
    const id = await startBulkQuery(gql, bulkProductsQuery({ collections: false }));
    const done = await waitForBulkOperation(gql, id, { intervalMs: 10, timeoutMs: 20_000 });
    expect(done.objectCount).toBeGreaterThan(100_000 * 4);
    // The heap that is live, not what the collector has yet to free: this process runs other test
    // files before this one, whose garbage would otherwise count.
    const liveHeap = () => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const heapBefore = liveHeap();
    let products = 0;
    let lines = 0;
    let maxHeap = heapBefore;
    for await (const group of readBulkJsonl(done.url)) {
      products++;
      lines += 1 + group.children.length;
      if (products % 10_000 === 0) maxHeap = Math.max(maxHeap, liveHeap());
    }
    expect(products).toBe(100_000);
    expect(lines).toBe(done.objectCount);
    // The result is ~140 MB of JSON (550,000 objects): holding it parsed would take several times
    // that. Server and client share this heap.
    expect(maxHeap - heapBefore).toBeLessThan(120 * 1024 * 1024);
    expect(store.bulkDownloads).toHaveLength(1);
  }, 120_000);

  it("counts the products of a bulk result as rootObjectCount, deleted and added ones too", async () => {
    const { store, gql } = await start({ products: 10, seed: 4, bulkDurationMs: 5 });
    const [first, second] = store.products();
    store.deleteProduct(first.id);
    store.deleteProduct(second.id);
    store.deleteProduct(store.addProduct().id);
    store.addProduct();
    store.updateProduct(store.products()[0].id, { title: "renamed" });
    const done = await waitForBulkOperation(gql, await startBulkQuery(gql, bulkProductsQuery()), {
      intervalMs: 5,
      timeoutMs: 5_000,
    });
    let products = 0;
    for await (const _group of readBulkJsonl(done.url)) products++;
    expect(products).toBe(9);
    expect(done.rootObjectCount).toBe(9);
  });

  it("completes a running bulk operation on demand, long before its time is up, with its file", async () => {
    const { store, gql } = await start({ products: 12, seed: 5, bulkDurationMs: 600_000 });
    const id = await startBulkQuery(gql, bulkProductsQuery());
    expect(store.bulkOperations().map((op) => op.status)).toEqual(["RUNNING"]);
    await store.finishBulkOperations();
    const done = await waitForBulkOperation(gql, id, { intervalMs: 5, timeoutMs: 1_000 });
    expect(done.rootObjectCount).toBe(12);
    let products = 0;
    for await (const _group of readBulkJsonl(done.url)) products++;
    expect(products).toBe(12);
  });

  it("POSTs a signed bulk_operations/finish webhook when an operation completes", async () => {
    const apiSecret = "shpss_test_secret_for_hmac";
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/bulk-operations-finish`;
      const { store, gql } = await start({ products: 5, webhookUrl: url, apiSecret, bulkDurationMs: 5 });
      const id = await startBulkQuery(gql, bulkProductsQuery());
      const delivery = await eventually(() => received[0]);
      expect(JSON.parse(delivery.body)).toMatchObject({
        admin_graphql_api_id: id,
        status: "completed",
        error_code: null,
        type: "query",
      });
      expect(delivery.headers["x-shopify-hmac-sha256"]).toBe(
        createHmac("sha256", apiSecret).update(delivery.body).digest("base64"),
      );
      expect(delivery.headers).toMatchObject({
        "x-shopify-topic": "bulk_operations/finish",
        "x-shopify-shop-domain": store.shop,
        "x-shopify-api-version": store.apiVersion,
      });
      expect(delivery.headers["x-shopify-webhook-id"]).toBeTruthy();
      expect(delivery.headers["x-shopify-event-id"]).toBeTruthy();
      expect(Date.parse(String(delivery.headers["x-shopify-triggered-at"]))).not.toBeNaN();
      await eventually(() => store.webhookDeliveries[0]?.status === 200);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it("takes more modules: an orders module plugs in operations and a bulk root", async () => {
    const orders: StoreModule = {
      name: "orders",
      operations: {
        OrderById: { handle: (v) => ({ data: { order: { id: v.id, name: "#1001" } } }) },
      },
      bulkRoots: {
        orders: {
          objectCount: () => 3,
          *groups() {
            yield {
              parent: { id: "gid://shopify/Order/1", name: "#1001" },
              children: [
                { id: "gid://shopify/LineItem/1", sku: "A", __parentId: "gid://shopify/Order/1" },
                { id: "gid://shopify/LineItem/2", sku: "B", __parentId: "gid://shopify/Order/1" },
              ],
            };
          },
        },
      },
    };
    const { gql } = await start({ modules: [orders] });
    expect(
      await gql.query("query OrderById($id: ID!) { order(id: $id) { id name } }", { id: "gid://shopify/Order/1" }),
    ).toEqual({
      order: { id: "gid://shopify/Order/1", name: "#1001" },
    });
    const id = await startBulkQuery(gql, bulkOrdersQuery({ createdSince: "2026-09-01" }));
    const done = await waitForBulkOperation(gql, id, { intervalMs: 10, timeoutMs: 5_000 });
    const groups = [];
    for await (const g of readBulkJsonl(done.url)) groups.push(g);
    expect(groups).toHaveLength(1);
    expect(groups[0].children.map((c) => c.sku)).toEqual(["A", "B"]);
    // A root without its own rootObjectCount: the store counts its groups.
    expect(done).toMatchObject({ objectCount: 3, rootObjectCount: 1 });
  });
});

describe("a fleet of simulated stores", () => {
  it("serves each shop it holds under /shops/{shop}, with its own tokens and catalog; another shop answers 404", async () => {
    const fleet = await startStoreFleet({ shopOptions: { keepHistory: false } });
    try {
      const one = fleet.add("one.myshopify.com", { products: 2 });
      const two = fleet.add("two.myshopify.com", { products: 5 });
      expect(fleet.add("one.myshopify.com")).toBe(one);
      const ask = async (shop: string, token: string) => {
        const res = await fetch(`${fleet.origin}/shops/${shop}/admin/api/${one.apiVersion}/graphql.json`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": token },
          body: JSON.stringify({ query: SHOP_PRIMARY_DOMAIN }),
        });
        return { status: res.status, body: (await res.json()) as { data?: { shop: { myshopifyDomain: string } } } };
      };
      const oneToken = one.installSession().accessToken;
      expect((await ask("one.myshopify.com", oneToken)).body.data?.shop.myshopifyDomain).toBe("one.myshopify.com");
      // A token is its shop's own.
      expect((await ask("two.myshopify.com", oneToken)).status).toBe(401);
      const twoToken = two.installSession().accessToken;
      expect((await ask("two.myshopify.com", twoToken)).body.data?.shop.myshopifyDomain).toBe("two.myshopify.com");
      expect((await ask("three.myshopify.com", twoToken)).status).toBe(404);
      expect([one.products().length, two.products().length]).toEqual([2, 5]);
      // Without history, nothing grows with the calls but a count.
      expect(one.requests).toEqual([]);
      expect(fleet.requests()).toBe(4);
      expect(fleet.size()).toBe(2);

      // Bulk results are served under the shop's own path.
      const gql = createAdminGraphql({
        shop: "two.myshopify.com",
        accessToken: twoToken,
        apiVersion: two.apiVersion,
        endpoint: `${fleet.origin}/shops/two.myshopify.com/admin/api/${two.apiVersion}/graphql.json`,
        logger: pino({ level: "silent" }),
        throttle: new ThrottleRegistry(),
      });
      const done = await waitForBulkOperation(gql, await startBulkQuery(gql, bulkProductsQuery()), {
        intervalMs: 5,
        timeoutMs: 5_000,
      });
      expect(done.url).toMatch(new RegExp(`^${fleet.origin}/shops/two\\.myshopify\\.com/bulk/\\d+\\.jsonl$`));
      let products = 0;
      for await (const _group of readBulkJsonl(done.url)) products++;
      expect(products).toBe(5);
    } finally {
      await fleet.close();
    }
  });
});
