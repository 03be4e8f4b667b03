import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulatedStore, type SimulatedStore } from "../../../sandbox/simulated-store";
import { createAdminGraphql, operationName, type AdminGraphqlOptions } from "./admin-graphql";
import { SHOP_PRIMARY_DOMAIN } from "./documents";
import { VARIANTS_PER_QUERY } from "./paged-sizes";
import { PRODUCT_BY_ID } from "./product-documents";
import {
  ShopifyAddressRefusedError,
  ShopifyAuthError,
  ShopifyPermanentError,
  ShopifyRetryableError,
  ShopifyThrottledError,
} from "./errors";
import { fetchPrimaryDomain, fetchProduct } from "./queries";
import { ThrottleRegistry } from "./throttle";

const silent = pino({ level: "silent" });
const SHOP = "hb-outfitters.myshopify.com";
const TOKEN = "shpat_test_5f2d0c1b9a8e7d6c";

type Reply = { status?: number; body: unknown; headers?: Record<string, string> } | Error;

/** A fetch that answers from a script and records what it was sent. */
function scriptedFetch(replies: Reply[]) {
  const calls: {
    url: string;
    headers: Headers;
    body: { query: string; variables: Record<string, unknown>; operationName?: string };
  }[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
    const reply = replies.shift();
    if (!reply) throw new Error("script exhausted");
    if (reply instanceof Error) throw reply;
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { "Content-Type": "application/json", ...reply.headers },
    });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

/** A clock that only moves when the client sleeps: waits are observed, never spent. */
function fakeTime() {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    throttle: new ThrottleRegistry(() => now),
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
  };
}

const cost = (requested: number, currentlyAvailable: number, actual: number | null = requested) => ({
  cost: {
    requestedQueryCost: requested,
    actualQueryCost: actual,
    throttleStatus: { maximumAvailable: 2000, currentlyAvailable, restoreRate: 100 },
  },
});
const throttled = (requested: number, currentlyAvailable: number): Reply => ({
  body: {
    errors: [
      {
        message: "Throttled",
        extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
      },
    ],
    extensions: cost(requested, currentlyAvailable, null),
  },
});
const ok = (data: unknown, requested = 2, available = 1998): Reply => ({
  body: { data, extensions: cost(requested, available) },
});

function client(fetch: typeof globalThis.fetch, time = fakeTime(), extra: Partial<AdminGraphqlOptions> = {}) {
  return createAdminGraphql({
    shop: SHOP,
    accessToken: TOKEN,
    apiVersion: "2026-01",
    fetch,
    logger: silent,
    throttle: time.throttle,
    sleep: time.sleep,
    ...extra,
  });
}

describe("admin GraphQL client", () => {
  it("posts to https://{shop}/admin/api/{version}/graphql.json with the access token and the operation name", async () => {
    const { fetch, calls } = scriptedFetch([ok({ shop: { primaryDomain: { url: "https://shop.example.com" } } })]);
    await client(fetch).query(SHOP_PRIMARY_DOMAIN);
    expect(calls[0].url).toBe("https://hb-outfitters.myshopify.com/admin/api/2026-01/graphql.json");
    expect(calls[0].headers.get("x-shopify-access-token")).toBe(TOKEN);
    expect(calls[0].body.operationName).toBe("ShopPrimaryDomain");
  });

  it("waits before a call when the bucket cannot pay that document's last cost", async () => {
    const time = fakeTime();
    const { fetch } = scriptedFetch([ok({ product: null }, 264, 40), ok({ product: null }, 264, 1800)]);
    const gql = client(fetch, time);
    await gql.query(PRODUCT_BY_ID, { id: "gid://shopify/Product/1" });
    expect(time.waits).toEqual([]);
    await gql.query(PRODUCT_BY_ID, { id: "gid://shopify/Product/1" });
    // (264 - 40) points at 100 points/s.
    expect(time.waits).toEqual([2240]);
  });

  it("retries a THROTTLED answer after the wait computed from throttleStatus", async () => {
    const time = fakeTime();
    const { fetch, calls } = scriptedFetch([
      throttled(264, 14),
      ok({ product: { id: "gid://shopify/Product/1" } }, 264, 10),
    ]);
    const data = await client(fetch, time).query<{ product: { id: string } }>(PRODUCT_BY_ID, {
      id: "gid://shopify/Product/1",
    });
    expect(data.product.id).toBe("gid://shopify/Product/1");
    expect(calls).toHaveLength(2);
    expect(time.waits).toEqual([2500]);
  });

  it("gives up after 3 THROTTLED retries with a throttled error that says how long to wait", async () => {
    const time = fakeTime();
    const { fetch, calls } = scriptedFetch([
      throttled(500, 0),
      throttled(500, 0),
      throttled(500, 0),
      throttled(500, 100),
    ]);
    const error = await client(fetch, time)
      .query(PRODUCT_BY_ID, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyThrottledError);
    expect((error as ShopifyThrottledError).retryAfterMs).toBe(4000);
    expect((error as ShopifyThrottledError).retryable).toBe(true);
    expect(calls).toHaveLength(4);
  });

  it("honours Retry-After on an HTTP 429", async () => {
    const time = fakeTime();
    const { fetch } = scriptedFetch([
      { status: 429, body: { errors: "Exceeded 2 calls per second" }, headers: { "Retry-After": "2.0" } },
      ok({ ok: true }),
    ]);
    await client(fetch, time).query(SHOP_PRIMARY_DOMAIN);
    expect(time.waits).toEqual([2000]);
  });

  it("5xx, network errors and INTERNAL_SERVER_ERROR are retryable errors, left to the job queue to retry", async () => {
    for (const reply of [
      { status: 502, body: { errors: "Bad Gateway" } },
      new TypeError("fetch failed"),
      {
        body: {
          errors: [
            {
              message: "Internal error. Looks like something went wrong on our end.",
              extensions: { code: "INTERNAL_SERVER_ERROR" },
            },
          ],
        },
      },
    ] satisfies Reply[]) {
      const { fetch, calls } = scriptedFetch([reply]);
      const error = await client(fetch)
        .query(SHOP_PRIMARY_DOMAIN)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ShopifyRetryableError);
      expect(error).not.toBeInstanceOf(ShopifyThrottledError);
      expect(calls).toHaveLength(1);
    }
  });

  it("401/403 and ACCESS_DENIED are auth errors; other 4xx and GraphQL errors are permanent", async () => {
    const cases: [Reply, unknown][] = [
      [
        {
          status: 401,
          body: { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" },
        },
        ShopifyAuthError,
      ],
      [
        { body: { errors: [{ message: "Access denied for orders field.", extensions: { code: "ACCESS_DENIED" } }] } },
        ShopifyAuthError,
      ],
      [{ status: 404, body: { errors: "Not Found" } }, ShopifyPermanentError],
      [
        {
          body: {
            errors: [{ message: "Field 'nope' doesn't exist on type 'Shop'", extensions: { code: "undefinedField" } }],
          },
        },
        ShopifyPermanentError,
      ],
    ];
    for (const [reply, type] of cases) {
      const { fetch } = scriptedFetch([reply]);
      const error = await client(fetch)
        .query(SHOP_PRIMARY_DOMAIN)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as ShopifyPermanentError).retryable).toBe(false);
      expect((error as ShopifyPermanentError).shop).toBe(SHOP);
    }
  });

  it("a 403 without an ACCESS_DENIED entry is the IP allowlist's: its own error, Shopify's body kept, one call", async () => {
    const body = { errors: "[API] This request's source IP address is not allowed by the app's IP allowlist." };
    const { fetch, calls } = scriptedFetch([{ status: 403, body }]);
    const error = await client(fetch)
      .query(SHOP_PRIMARY_DOMAIN)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyAddressRefusedError);
    expect(error).not.toBeInstanceOf(ShopifyPermanentError);
    expect((error as ShopifyAddressRefusedError).retryable).toBe(false);
    expect((error as ShopifyAddressRefusedError).body).toContain("not allowed by the app's IP allowlist");
    expect((error as Error).message).toContain("refused this server's address");
    expect(calls).toHaveLength(1);
  });

  it("a 403 carrying a GraphQL ACCESS_DENIED entry is a missing scope, not the allowlist", async () => {
    const body = {
      errors: [
        {
          message: "Access denied for customers field. Required access: `read_customers` access scope.",
          extensions: { code: "ACCESS_DENIED" },
        },
      ],
    };
    const { fetch } = scriptedFetch([{ status: 403, body }]);
    const error = await client(fetch)
      .query(SHOP_PRIMARY_DOMAIN)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyAuthError);
  });

  it("never writes the access token to the log", async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = pino({ level: "trace" }, sink);
    const { fetch } = scriptedFetch([throttled(264, 14), ok({ product: null }, 264, 10), { status: 500, body: {} }]);
    const gql = client(fetch, fakeTime(), { logger });
    await gql.query(PRODUCT_BY_ID, {});
    await gql.query(PRODUCT_BY_ID, {}).catch(() => undefined);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("")).not.toContain(TOKEN);
  });

  it("reads the operation name from the document", () => {
    expect(operationName(PRODUCT_BY_ID)).toBe("ProductById");
    expect(operationName("{ shop { id } }")).toBeUndefined();
  });
});

describe("admin GraphQL client against the simulated store (real HTTP)", () => {
  let store: SimulatedStore;
  beforeAll(async () => {
    store = await startSimulatedStore({
      products: 20,
      seed: 7,
      throttle: { maximumAvailable: 1000, restoreRate: 1000 },
    });
  });
  afterAll(async () => {
    await store.close();
  });
  const storeClient = (extra: Partial<AdminGraphqlOptions> = {}) =>
    createAdminGraphql({
      shop: store.shop,
      accessToken: store.accessToken,
      apiVersion: store.apiVersion,
      endpoint: store.graphqlEndpoint,
      logger: silent,
      throttle: new ThrottleRegistry(),
      ...extra,
    });

  it("reads the primary domain and a product", async () => {
    const gql = storeClient();
    expect(await fetchPrimaryDomain(gql)).toBe(store.primaryDomain);
    const [first] = store.products();
    const product = await fetchProduct(gql, first.id);
    expect(product?.id).toBe(first.id);
    expect(product?.variants).toHaveLength(first.variants.length);
    expect(await fetchProduct(gql, "gid://shopify/Product/1")).toBeNull();
  });

  it("a drained bucket answers THROTTLED; the client waits for the refill and gets its answer", async () => {
    // A slow refill (100 points a second: the Standard plan's) so that the bucket is still short
    // of the call's cost when it arrives, however busy the machine is.
    const slow = await startSimulatedStore({
      products: 1,
      seed: 7,
      throttle: { maximumAvailable: 1000, restoreRate: 100 },
    });
    try {
      const gql = storeClient({ endpoint: slow.graphqlEndpoint, accessToken: slow.accessToken });
      const [first] = slow.products();
      slow.setAvailablePoints(0);
      const product = await fetchProduct(gql, first.id);
      expect(product?.id).toBe(first.id);
      expect(slow.requests.map((r) => r.throttled)).toEqual([true, false]);
    } finally {
      await slow.close();
    }
  });

  it("pages variants past the first 100 (a product may have 2,048)", async () => {
    const added = store.addProduct({
      variants: Array.from({ length: 600 }, (_, i) => ({
        id: `gid://shopify/ProductVariant/${47_000_000_000_000 + i}`,
        title: `Size ${i}`,
        sku: `BIG-${i}`,
        barcode: null,
        price: "10.00",
        position: i + 1,
        inventoryQuantity: 1,
        selectedOptions: [{ name: "Size", value: `Size ${i}` }],
        createdAt: "2026-01-01T00:00:00Z",
        updatedAt: "2026-01-01T00:00:00Z",
      })),
    });
    // A full cost bucket: the throttling test above may have left it drained (a THROTTLED answer
    // and its retry would add requests this test does not count).
    store.setAvailablePoints(1000);
    const before = store.requests.length;
    const product = await fetchProduct(storeClient(), added.id);
    const variants = product?.variants as { sku: string }[];
    expect(variants).toHaveLength(600);
    expect(variants[599].sku).toBe("BIG-599");
    // 100 a query: what a query's requested cost allows now that each variant reads its barcodes.
    expect(store.requests.slice(before).map((r) => r.operationName)).toEqual([
      "ProductById",
      ...Array.from({ length: 600 / VARIANTS_PER_QUERY - 1 }, () => "ProductVariantsPage"),
    ]);
  });

  it("a wrong token is an auth error; an injected 503 is retryable", async () => {
    await expect(storeClient({ accessToken: "shpat_wrong" }).query(SHOP_PRIMARY_DOMAIN)).rejects.toBeInstanceOf(
      ShopifyAuthError,
    );
    store.injectFailure({ status: 503 });
    await expect(storeClient().query(SHOP_PRIMARY_DOMAIN)).rejects.toBeInstanceOf(ShopifyRetryableError);
  });
});
