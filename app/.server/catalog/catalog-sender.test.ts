import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../sandbox/emulator/server";
import { MAX_BODY_BYTES as EMULATOR_MAX_BODY_BYTES } from "../../../sandbox/emulator/catalog.rules";
import {
  CATALOG_BATCH_MAX_BYTES,
  createReviewsClient,
  ReviewsPermanentError,
  ReviewsRetryableError,
  type CatalogBatchResult,
  type CatalogProduct,
} from "../reviews";
import { chunk, MAX_BATCH_BYTES, MAX_BATCH_ITEMS, sendCatalog, type BatchOutcome } from "./catalog-sender";
import type { StagedProduct } from "./pending-changes";

// The catalog sender on its own: chunking to the service's limits, and what it does with each answer.
// The first part fakes the service to pin the algorithm (bisection, halving); the second sends over
// HTTP to the emulator with the real reviews client, so the limits and the refusals are the real ones.

const staged = (id: number | string, extra: Partial<CatalogProduct> = {}): StagedProduct => {
  const sku = String(id);
  return {
    productId: sku,
    sku,
    hash: `h${sku}`,
    product: { sku, name: `Product ${sku}`, categories: ["Tees"], ...extra },
  };
};
const items = (n: number, from = 1) => Array.from({ length: n }, (_, i) => staged(from + i));
const bodyBytes = (batch: StagedProduct[]) =>
  Buffer.byteLength(JSON.stringify({ products: batch.map((i) => i.product) }));

const request = { api: "admin" as const, method: "POST", path: "/acme/products/batch" };
const http400 = (message: string) =>
  new ReviewsPermanentError("Reviews request refused", {
    request,
    status: 400,
    serviceError: "invalid_request",
    serviceMessage: message,
    reason: "bad_request",
  });
const http413 = () =>
  new ReviewsPermanentError("Reviews request too large", {
    request,
    status: 413,
    serviceError: "payload_too_large",
    reason: "too_large",
  });
const ok = (products: CatalogProduct[]): CatalogBatchResult => ({
  received: products.length,
  processed: products.length,
  created: products.length,
  updated: 0,
  unchanged: 0,
  failed: 0,
  errors: [],
});

/** Collects what the sender reports. */
function recorder() {
  const outcomes: BatchOutcome[] = [];
  return {
    outcomes,
    onBatch: async (o: BatchOutcome) => void outcomes.push(o),
    accepted: () => outcomes.flatMap((o) => o.accepted.map((i) => i.sku)),
    rejected: () => outcomes.flatMap((o) => o.rejected.map((r) => ({ sku: r.item.sku, error: r.error }))),
  };
}

describe("chunk", () => {
  it("GIVEN 450 small items THEN batches of 200, 200 and 50, in order", () => {
    const chunks = chunk(items(450));
    expect(chunks.map((c) => c.length)).toEqual([200, 200, 50]);
    expect(chunks.flat().map((i) => i.sku)).toEqual(items(450).map((i) => i.sku));
  });

  it("GIVEN items so large that 200 of them pass 10 MB THEN it splits by bytes, each body within both 10 MB readings", () => {
    // ~100 KB each: 200 of them would be a 20 MB body.
    const big = Array.from({ length: 200 }, (_, i) => staged(i + 1, { description: "x".repeat(100_000) }));
    const chunks = chunk(big);
    expect(chunks.length).toBe(3);
    expect(chunks.flat().map((i) => i.sku)).toEqual(big.map((i) => i.sku));
    for (const c of chunks) {
      expect(c.length).toBeLessThan(MAX_BATCH_ITEMS);
      expect(bodyBytes(c)).toBeLessThanOrEqual(CATALOG_BATCH_MAX_BYTES);
      expect(bodyBytes(c)).toBeLessThanOrEqual(EMULATOR_MAX_BODY_BYTES);
    }
    // Full: the next item would not have fitted under the estimate.
    expect(bodyBytes([...chunks[0], chunks[1][0]])).toBeGreaterThan(MAX_BATCH_BYTES);
  });

  it("GIVEN multi-byte text THEN it counts UTF-8 bytes, not UTF-16 length", () => {
    // 300 'é' are 300 UTF-16 units but 600 bytes: 4 items are 1,200 characters but 2,400+ bytes.
    const accented = Array.from({ length: 4 }, (_, i) => staged(i + 1, { description: "é".repeat(300) }));
    const chunks = chunk(accented, 200, 2_000);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks)
      expect(c.reduce((n, i) => n + Buffer.byteLength(JSON.stringify(i.product)) + 1, 0)).toBeLessThanOrEqual(2_000);
  });

  it("GIVEN one item alone over the byte limit THEN it gets a batch of its own and its neighbours are not held back", () => {
    const list = [staged(1), staged(2), staged(3, { description: "x".repeat(3_000) }), staged(4), staged(5)];
    expect(chunk(list, 200, 1_000).map((c) => c.map((i) => i.sku))).toEqual([["1", "2"], ["3"], ["4", "5"]]);
  });
});

describe("sendCatalog against a faked service", () => {
  it("GIVEN a 400 whenever the batch holds the bad item THEN bisection isolates it in 2·log2(n)+1 attempts and the others are accepted", async () => {
    const attempts: string[][] = [];
    const send = async (products: CatalogProduct[]) => {
      attempts.push(products.map((p) => p.sku));
      if (products.some((p) => p.sku === "12")) throw http400("products[11].brand must be a string");
      return ok(products);
    };
    const r = recorder();
    const { requests } = await sendCatalog(items(16), send, r.onBatch);
    expect(r.rejected()).toEqual([{ sku: "12", error: "products[11].brand must be a string" }]);
    expect(r.accepted().sort((a, b) => Number(a) - Number(b))).toEqual(
      items(16)
        .map((i) => i.sku)
        .filter((s) => s !== "12"),
    );
    expect(requests).toBe(2 * Math.log2(16) + 1);
    expect(attempts).toHaveLength(requests);
    // One refused attempt per level, then the bad item alone.
    expect(attempts.filter((a) => a.includes("12")).map((a) => a.length)).toEqual([16, 8, 4, 2, 1]);
  });

  it("GIVEN 200 items with one bad THEN the attempts stay logarithmic", async () => {
    const send = async (products: CatalogProduct[]) => {
      if (products.some((p) => p.sku === "137")) throw http400("bad item");
      return ok(products);
    };
    const r = recorder();
    const { requests } = await sendCatalog(items(200), send, r.onBatch);
    expect(r.rejected().map((x) => x.sku)).toEqual(["137"]);
    expect(r.accepted()).toHaveLength(199);
    expect(requests).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(200)) + 1);
  });

  it("GIVEN a 413 whenever the body passes a size THEN it halves until each part goes, and a lone product over it is refused", async () => {
    const limit = 2_000;
    const sizes: number[] = [];
    const send = async (products: CatalogProduct[]) => {
      sizes.push(products.length);
      if (Buffer.byteLength(JSON.stringify({ products })) > limit) throw http413();
      return ok(products);
    };
    const list = [...items(20), staged("huge", { description: "x".repeat(5_000) }), ...items(10, 100)];
    const r = recorder();
    await sendCatalog(list, send, r.onBatch);
    expect(r.rejected()).toEqual([{ sku: "huge", error: "product is over the 10 MB request limit" }]);
    expect(r.accepted()).toHaveLength(30);
    expect(sizes[0]).toBe(31);
    expect(sizes[1]).toBe(16);
  });

  it("GIVEN a 5xx after a first accepted batch THEN it is thrown and the accepted batch was reported first", async () => {
    let calls = 0;
    const send = async (products: CatalogProduct[]) => {
      if (++calls === 2)
        throw new ReviewsRetryableError("Reviews service error", { request, status: 503, reason: "server" });
      return ok(products);
    };
    const r = recorder();
    await expect(sendCatalog(items(250), send, r.onBatch)).rejects.toBeInstanceOf(ReviewsRetryableError);
    expect(r.accepted()).toHaveLength(200);
    expect(r.rejected()).toEqual([]);
  });
});

describe("sendCatalog over HTTP to the emulator", () => {
  let emu: Emulator;
  const account = () => ({
    customer: "acme",
    clientId: "acme-client",
    clientSecret: "acme-secret-0123456789",
    apiUrl: emu.baseUrl,
    authUrl: emu.authUrl,
    rateUrl: emu.rateUrl,
  });
  const client = (validateRequests = true) =>
    createReviewsClient({ account: account(), validateRequests, timeoutMs: 60_000 });
  const batches = (since: number) => emu.control.requests(since).filter((r) => r.path === "/api/acme/products/batch");
  const skusOf = (r: { body: unknown }) =>
    ((r.body as { products?: { sku: string }[] } | null)?.products ?? []).map((p) => p.sku);
  const stored = () => new Set(emu.control.state("acme").products.map((p) => p.sku));

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      accounts: [{ customer: "acme", clientId: "acme-client", clientSecret: "acme-secret-0123456789" }],
    });
  });
  afterAll(async () => emu.close());
  beforeEach(() => emu.control.reset());

  // A `brand` that is not a string breaks the item schema of the request. The spec answers 400 for a
  // whole batch only when `products` is absent, empty, not an array or over 200 items; invalid items
  // are refused one by one in the 200 (rules 5 and 6). So the service never answers 400 for such an
  // item: it is the client, which checks the body against the same schema before sending, that refuses
  // the whole batch (reason invalid_request), and the sender bisects on that refusal.
  const bad = () => staged("bad", { brand: 42 as unknown as string });

  it("GIVEN one item breaking the request schema THEN only it is refused, with its reason, and the good ones are stored in log2(n) requests", async () => {
    const list = [...items(5), bad(), ...items(2, 6)];
    const since = emu.control.lastRequestSeq();
    const r = recorder();
    await sendCatalog(list, (p) => client().admin.sendCatalogBatch(p), r.onBatch);

    expect(r.rejected()).toEqual([{ sku: "bad", error: expect.stringMatching(/brand/) }]);
    expect(r.accepted().sort()).toEqual(
      items(7)
        .map((i) => i.sku)
        .sort(),
    );
    expect([...stored()].sort()).toEqual(
      items(7)
        .map((i) => i.sku)
        .sort(),
    );
    // The bad item never left: what reached the service is one good half per level.
    const sent = batches(since);
    expect(sent.map((b) => b.status)).toEqual([200, 200, 200]);
    expect(sent.length).toBe(Math.log2(list.length));
    expect(sent.flatMap(skusOf)).not.toContain("bad");
  });

  it("GIVEN the same item sent without the client's check THEN the service answers 200 with a per-item error (spec rule 6), not 400", async () => {
    const list = [...items(5), bad(), ...items(2, 6)];
    const since = emu.control.lastRequestSeq();
    const r = recorder();
    const { requests } = await sendCatalog(list, (p) => client(false).admin.sendCatalogBatch(p), r.onBatch);
    expect(requests).toBe(1);
    expect(batches(since).map((b) => b.status)).toEqual([200]);
    expect(r.rejected()).toEqual([{ sku: "bad", error: expect.stringMatching(/brand/) }]);
    expect(r.accepted()).toHaveLength(7);
  });

  it("GIVEN items that break the service's rules but not the schema (new product without categories) THEN one request, that item refused", async () => {
    const list = [...items(3), staged("nocat", { categories: undefined }), ...items(3, 4)];
    const since = emu.control.lastRequestSeq();
    const r = recorder();
    await sendCatalog(list, (p) => client().admin.sendCatalogBatch(p), r.onBatch);
    expect(batches(since)).toHaveLength(1);
    expect(r.rejected()).toEqual([{ sku: "nocat", error: expect.stringMatching(/categories/) }]);
    expect(stored().has("nocat")).toBe(false);
    expect(stored().size).toBe(6);
  });

  // Over both readings of "10 MB": the client's 10,000,000 bytes and the emulator's 10 MiB.
  const huge = () => staged("huge", { description: "x".repeat(EMULATOR_MAX_BODY_BYTES + 100_000) });

  it("GIVEN one product alone over 10 MB THEN the client never sends it, it is refused and recorded, and the rest of the batch goes", async () => {
    const list = [...items(3), huge(), ...items(3, 4)];
    const since = emu.control.lastRequestSeq();
    const r = recorder();
    await sendCatalog(list, (p) => client().admin.sendCatalogBatch(p), r.onBatch);
    expect(r.rejected()).toEqual([{ sku: "huge", error: "product is over the 10 MB request limit" }]);
    expect(r.accepted()).toHaveLength(6);
    expect(stored().size).toBe(6);
    const sent = batches(since);
    expect(sent.map((b) => b.status)).toEqual([200, 200]);
    expect(sent.flatMap(skusOf)).not.toContain("huge");
  });

  it("GIVEN one product alone over 10 MB and the client's check off THEN the service's own 413 refuses it and the rest goes", async () => {
    const list = [...items(3), huge(), ...items(3, 4)];
    const since = emu.control.lastRequestSeq();
    const r = recorder();
    await sendCatalog(list, (p) => client(false).admin.sendCatalogBatch(p), r.onBatch);
    expect(batches(since).map((b) => b.status)).toEqual([200, 413, 200]);
    expect(r.rejected()).toEqual([{ sku: "huge", error: "product is over the 10 MB request limit" }]);
    expect(stored().size).toBe(6);
  });

  it("GIVEN 30 products of ~400 KB in multi-byte text (12 MB, 6 M UTF-16 units) THEN two requests, both accepted, no 413", async () => {
    const list = Array.from({ length: 30 }, (_, i) => staged(i + 1, { description: "é".repeat(200_000) }));
    const since = emu.control.lastRequestSeq();
    const r = recorder();
    const { requests } = await sendCatalog(list, (p) => client(false).admin.sendCatalogBatch(p), r.onBatch);
    const sent = batches(since);
    expect(sent.map((b) => b.status)).toEqual([200, 200]);
    expect(requests).toBe(2);
    expect(r.accepted()).toHaveLength(30);
    expect(stored().size).toBe(30);
  });
});
